"""An env's home as the host sees it: listing, reading, copying and staging scripts beside it.

The home is written by untrusted scripts, so every host-side operation here assumes it may hold
anything a script can make: symlinks pointing out of it (never followed), FIFOs and sockets (listed,
never opened), and paths swapped between a check and a use (files are opened component by
component with O_NOFOLLOW, then checked through the open descriptor).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import shutil
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from infra.envs.base import FileEntry
from infra.errors import EnvError
from infra.sandbox import GUEST_HOME
from infra.sandbox.tree import Node, TreeWalk, unsafe_bits

log = logging.getLogger(__name__)

MAX_STATE_ENTRIES = 20_000  # a script that creates millions of files must not stall the pipeline
MAX_HASH_BYTES = 64 * 1024 * 1024  # state views hash files up to this apparent size, no further
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO swapped in for a file must not wait for a writer.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "char device"),
    (stat.S_ISBLK, "block device"),
)


def safe_script_name(name: str) -> str:
    if not name or "/" in name or name.startswith(".") or len(name) > 128:
        raise EnvError(f"invalid script name {name!r}", hint="use a plain file name such as reward.py")
    return name


def dir_safe(task_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in task_id)[:120] or "task"


def new_env_id() -> str:
    """A random env id. Never derived from the env's role: it names folders a script can see."""
    return uuid.uuid4().hex[:16]


def special_kind(mode: int) -> str | None:
    return next((name for test, name in _SPECIAL_KINDS if test(mode)), None)


def walk_state(home: Path, *, max_entries: int = MAX_STATE_ENTRIES) -> tuple[list[FileEntry], bool]:
    """List everything under `home` without following symlinks or opening anything but regular
    files; returns (entries, truncated). `truncated` is true whenever something is missing from
    the list: past `max_entries`, nested deeper than the walk follows, or not listable."""
    entries: list[FileEntry] = []
    walk = TreeWalk(home)
    truncated = False
    try:
        with walk as nodes:
            for node in nodes:
                if len(entries) >= max_entries:
                    truncated = True
                    break
                entry = _entry(node)
                if entry is not None:
                    entries.append(entry)
    except FileNotFoundError:
        return [], False  # no home yet: nothing to list
    for gap in walk.incomplete:
        log.warning("state of %s incomplete: %s", home, gap)
    entries.sort(key=lambda e: e.path)
    return entries, truncated or bool(walk.incomplete)


def _entry(node: Node) -> FileEntry | None:
    st, rel = node.st, node.rel
    mode = f"{stat.S_IMODE(st.st_mode):04o}"
    if stat.S_ISLNK(st.st_mode):
        with contextlib.suppress(OSError):
            return FileEntry(
                path=rel, kind="symlink", mode=mode, target=os.readlink(node.name, dir_fd=node.parent_fd)
            )
        return None
    if stat.S_ISDIR(st.st_mode):
        return FileEntry(path=rel, kind="dir", mode=mode)
    if stat.S_ISREG(st.st_mode):
        digest, unhashed = _sha256(node)
        return FileEntry(path=rel, kind="file", size=st.st_size, mode=mode, sha256=digest, unhashed=unhashed)
    return FileEntry(path=rel, kind="other", mode=mode, target=special_kind(st.st_mode))


def _sha256(node: Node) -> tuple[str | None, str | None]:
    """(hex digest, None), or (None, why not): a file whose apparent size is over MAX_HASH_BYTES is
    not read (a sparse file of 8 blocks can claim gigabytes)."""
    too_big = f"not hashed: over the {MAX_HASH_BYTES >> 20} MiB hash cap"
    if node.st.st_size > MAX_HASH_BYTES:
        return None, too_big
    try:
        fd = os.open(node.name, _READ_FLAGS, dir_fd=node.parent_fd)
    except OSError:
        return None, "not hashed: could not be opened"
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "not hashed: not a regular file when opened"
        digest, read = hashlib.sha256(), 0
        for block in iter(lambda: fh.read(1 << 20), b""):
            read += len(block)
            if read > MAX_HASH_BYTES:  # it grew after the stat
                return None, too_big
            digest.update(block)
    return digest.hexdigest(), None


def guest_relative(path: str) -> PurePosixPath:
    """A guest path (absolute under /home/user, or relative to it) as a path relative to the home."""
    p = PurePosixPath(path)
    if p.is_absolute():
        try:
            p = p.relative_to(GUEST_HOME)
        except ValueError:
            raise EnvError(
                f"{path!r} is outside {GUEST_HOME}", hint="envs expose only the guest home"
            ) from None
    if ".." in p.parts:
        raise EnvError(f"{path!r} climbs out with '..'", hint="name a path inside the home")
    return p


def open_in_home(home: Path, path: str) -> int:
    """An O_RDONLY descriptor of the regular file at guest `path`, opened without following any
    symlink on the way (so a path swapped after a check cannot lead out of the home)."""
    parts = guest_relative(path).parts
    if not parts:
        raise EnvError(f"{path!r} is the home itself", hint="name a file inside it")
    fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nxt
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        file_fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    except FileNotFoundError:
        raise EnvError(f"no file {path!r} in the env", hint="list files with state_view()") from None
    except OSError as exc:
        raise EnvError(
            f"cannot open {path!r}: {exc.strerror} (symlinks are not followed)",
            hint="only regular files inside the home can be read",
        ) from None
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(file_fd).st_mode):
        os.close(file_fd)
        raise EnvError(f"{path!r} is not a regular file", hint="only regular files can be read")
    return file_fd


def read_home_file(home: Path, path: str, *, max_bytes: int) -> bytes:
    with os.fdopen(open_in_home(home, path), "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise EnvError(f"{path!r} is larger than {max_bytes} bytes", hint="raise max_bytes")
    return data


def copy_home(src: Path, dst: Path) -> None:
    """Copy a home (a snapshot, a restore) to `dst`, which must not exist; EnvError when it cannot.

    What leaves a sandbox is made safe on the way: no setuid, setgid or sticky bit survives, device
    nodes and sockets are left out (both are listed in the state view), FIFOs are re-created empty,
    symlinks are copied as links, xattrs are not copied, and holes stay holes (a 256 MB file written
    with one seek stays 8 blocks). The copy goes by directory descriptors, so a tree past PATH_MAX
    copies like any other; one nested deeper than the walk follows is refused, by name and depth.
    """
    walk = TreeWalk(src)
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.mkdir(mode=0o700)
        targets = [os.open(dst, _DIR_FLAGS)]
        try:
            with walk as nodes:
                for node in nodes:
                    while len(targets) > node.depth:  # back up to this node's folder
                        os.close(targets.pop())
                    made = _copy_node(node, targets[-1])
                    if made is not None:
                        targets.append(made)
        finally:
            for fd in targets:
                os.close(fd)
    except OSError as exc:
        raise EnvError(
            f"cannot copy the home {src} to {dst}: {exc}", hint="is the disk full, or the home gone?"
        ) from exc
    if walk.incomplete:
        raise EnvError(
            f"cannot copy the home {src}: {walk.incomplete[0]}",
            hint=f"a home must be listable in full and at most {walk.max_depth} folders deep",
        )


def _copy_node(node: Node, target: int) -> int | None:
    """Copy one entry into the folder `target`; returns the new folder's descriptor for a folder."""
    mode = stat.S_IMODE(node.st.st_mode) & ~unsafe_bits(node.st.st_mode)
    if node.is_dir:
        os.mkdir(node.name, 0o700, dir_fd=target)
        fd = os.open(node.name, _DIR_FLAGS, dir_fd=target)
        os.fchmod(fd, mode)
        return fd
    if stat.S_ISLNK(node.st.st_mode):
        os.symlink(os.readlink(node.name, dir_fd=node.parent_fd), node.name, dir_fd=target)
    elif stat.S_ISREG(node.st.st_mode):
        _copy_file(node, target)
    elif stat.S_ISFIFO(node.st.st_mode):
        os.mkfifo(node.name, mode & 0o777, dir_fd=target)
    else:
        log.info("not copying %s (%s)", node.rel, special_kind(node.st.st_mode) or "special file")
    return None


def _copy_file(node: Node, target: int) -> None:
    src = os.open(node.name, _READ_FLAGS, dir_fd=node.parent_fd)
    try:
        st = os.fstat(src)
        if not stat.S_ISREG(st.st_mode):  # swapped after the walk saw it
            return
        dst = os.open(node.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=target)
        try:
            copy_sparse(src, dst, st.st_size)
            os.fchmod(dst, stat.S_IMODE(st.st_mode) & ~unsafe_bits(st.st_mode))
            os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))
        finally:
            os.close(dst)
    finally:
        os.close(src)


def copy_sparse(src: int, dst: int, size: int) -> None:
    """Copy `size` bytes from `src` to `dst` writing only the data extents (SEEK_DATA/SEEK_HOLE),
    so holes stay holes; the final truncate makes the tail hole and the exact size."""
    pos = 0
    while pos < size:
        try:
            start = os.lseek(src, pos, os.SEEK_DATA)
            end = min(os.lseek(src, start, os.SEEK_HOLE), size)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # only a hole from here to the end
                break
            if exc.errno != errno.EINVAL:
                raise
            start, end = pos, size  # a file system without hole reporting: copy densely
        if start >= size or not _copy_range(src, dst, start, end):
            break
        pos = end
    os.ftruncate(dst, size)


def _copy_range(src: int, dst: int, start: int, end: int) -> bool:
    """Copy [start, end); False when the source ended early (it shrank while we copied)."""
    while start < end:
        block = os.pread(src, min(1 << 20, end - start), start)
        if not block:
            return False
        os.pwrite(dst, block, start)
        start += len(block)
    return True


@contextlib.contextmanager
def staged_script(parent: Path, name: str, source: str) -> Iterator[Path]:
    """A fresh folder holding only `name`, removed afterwards: each script sees itself, never the
    other scripts run in the same env (a reward that could see golden_patch.py would know its role)."""
    folder = parent / uuid.uuid4().hex
    folder.mkdir(parents=True)
    try:
        (folder / safe_script_name(name)).write_text(source, encoding="utf-8")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
