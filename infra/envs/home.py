"""An env's home as the host sees it: listing, reading, copying and staging scripts beside it.

The home is written by untrusted scripts, so every host-side operation here assumes it may hold
anything a script can make: symlinks pointing out of it (never followed), FIFOs and sockets (listed,
never opened), and paths swapped between a check and a use (files are opened component by
component with O_NOFOLLOW, then checked through the open descriptor).
"""

from __future__ import annotations

import contextlib
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

log = logging.getLogger(__name__)

MAX_STATE_ENTRIES = 20_000  # a script that creates millions of files must not stall the pipeline
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
    files; returns (entries, truncated)."""
    entries: list[FileEntry] = []
    stack = [home]
    while stack:
        current = stack.pop()
        try:
            children = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError:
            continue
        for child in children:
            if len(entries) >= max_entries:
                return entries, True
            entry = _entry(home, child)
            if entry is not None:
                entries.append(entry)
                if entry.kind == "dir":
                    stack.append(Path(child.path))
    entries.sort(key=lambda e: e.path)
    return entries, False


def _entry(home: Path, child: os.DirEntry) -> FileEntry | None:
    rel = Path(child.path).relative_to(home).as_posix()
    try:
        st = child.stat(follow_symlinks=False)
    except OSError:
        return None  # removed while we listed it
    mode = f"{stat.S_IMODE(st.st_mode):04o}"
    if stat.S_ISLNK(st.st_mode):
        with contextlib.suppress(OSError):
            return FileEntry(path=rel, kind="symlink", mode=mode, target=os.readlink(child.path))
        return None
    if stat.S_ISDIR(st.st_mode):
        return FileEntry(path=rel, kind="dir", mode=mode)
    if stat.S_ISREG(st.st_mode):
        return FileEntry(path=rel, kind="file", size=st.st_size, mode=mode, sha256=_sha256(home, rel))
    return FileEntry(path=rel, kind="other", mode=mode, target=special_kind(st.st_mode))


def _sha256(home: Path, rel: str) -> str | None:
    digest = hashlib.sha256()
    try:
        fd = open_in_home(home, rel)
    except EnvError:
        return None
    with os.fdopen(fd, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    """Copy a home (a snapshot, a restore): symlinks as links, FIFOs re-created empty, sockets and
    device nodes left out (neither can be copied; both are listed in the state view)."""
    shutil.copytree(src, dst, symlinks=True, copy_function=_copy_entry)


def _copy_entry(src: str, dst: str) -> None:
    st = os.lstat(src)
    if stat.S_ISREG(st.st_mode):
        shutil.copy2(src, dst, follow_symlinks=False)
    elif stat.S_ISFIFO(st.st_mode):
        os.mkfifo(dst, stat.S_IMODE(st.st_mode))
    else:
        log.info("not copying %s (%s)", src, special_kind(st.st_mode) or "special file")


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
