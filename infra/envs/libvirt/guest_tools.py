"""What the host asks of a VM's home, run inside the guest (`python3 -c <this file> COMMAND …`).

Self-contained (standard library only): its source is sent with each /execute. The rules are those
of infra/envs/home.py, which lists and reads a home the host can see (tests/vm/test_libvirt_units.py
checks both give the same answer on the same tree): symlinks reported and never followed, special
files listed and never opened, files opened component by component with O_NOFOLLOW.

    walk HOME MAX_ENTRIES      -> JSON {"entries": [FileEntry fields…], "truncated": bool}
    read HOME PATH MAX_BYTES   -> base64 of the file; exit 3 missing, 4 not readable, 5 too large
    unpack HOME ARCHIVE        -> replaces HOME's contents with the tar at ARCHIVE (then deletes it)
"""

import base64
import hashlib
import json
import os
import shutil
import stat
import sys
import tarfile

MISSING, UNREADABLE, TOO_LARGE = 3, 4, 5
_SPECIAL = (
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "char device"),
    (stat.S_ISBLK, "block device"),
)


def open_in_home(home, rel):
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise PermissionError(f"{rel!r} is not a file inside the home")
    fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nxt
        file_fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(file_fd).st_mode):
        os.close(file_fd)
        raise PermissionError(f"{rel!r} is not a regular file")
    return file_fd


MAX_HASH_BYTES = 64 * 1024 * 1024  # as infra/envs/home.py: a sparse file can claim gigabytes


def sha256(home, rel, size):
    """(hex digest, None), or (None, why not), by infra/envs/home.py's rules."""
    too_big = f"not hashed: over the {MAX_HASH_BYTES >> 20} MiB hash cap"
    if size > MAX_HASH_BYTES:
        return None, too_big
    try:
        fd = open_in_home(home, rel)
    except OSError:
        return None, "not hashed: could not be opened"
    with os.fdopen(fd, "rb") as fh:
        digest, read = hashlib.sha256(), 0
        for block in iter(lambda: fh.read(1 << 20), b""):
            read += len(block)
            if read > MAX_HASH_BYTES:
                return None, too_big
            digest.update(block)
    return digest.hexdigest(), None


def entry(home, child):
    rel = os.path.relpath(child.path, home).replace(os.sep, "/")
    try:
        st = child.stat(follow_symlinks=False)
    except OSError:
        return None
    mode = f"{stat.S_IMODE(st.st_mode):04o}"
    if stat.S_ISLNK(st.st_mode):
        try:
            return {"path": rel, "kind": "symlink", "mode": mode, "target": os.readlink(child.path)}
        except OSError:
            return None
    if stat.S_ISDIR(st.st_mode):
        return {"path": rel, "kind": "dir", "mode": mode}
    if stat.S_ISREG(st.st_mode):
        digest, unhashed = sha256(home, rel, st.st_size)
        return {
            "path": rel,
            "kind": "file",
            "size": st.st_size,
            "mode": mode,
            "sha256": digest,
            "unhashed": unhashed,
        }
    special = next((name for test, name in _SPECIAL if test(st.st_mode)), None)
    return {"path": rel, "kind": "other", "mode": mode, "target": special}


def walk(home, max_entries):
    entries, stack = [], [home]
    while stack:
        current = stack.pop()
        try:
            children = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError:
            continue
        for child in children:
            if len(entries) >= max_entries:
                return entries, True
            found = entry(home, child)
            if found is not None:
                entries.append(found)
                if found["kind"] == "dir":
                    stack.append(child.path)
    entries.sort(key=lambda e: e["path"])
    return entries, False


def read(home, rel, max_bytes):
    try:
        fd = open_in_home(home, rel)
    except FileNotFoundError:
        return MISSING, f"no file {rel!r} in the env"
    except OSError as exc:
        return UNREADABLE, f"cannot open {rel!r}: {exc.strerror or exc} (symlinks are not followed)"
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        return TOO_LARGE, f"{rel!r} is larger than {max_bytes} bytes"
    sys.stdout.write(base64.b64encode(data).decode())
    return 0, ""


def unpack(home, archive):
    for name in os.listdir(home):
        path = os.path.join(home, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if (
                member.name.startswith("/")
                or ".." in parts
                or member.islnk()
                or member.ischr()
                or member.isblk()
            ):
                raise SystemExit(f"refusing archive member {member.name!r}")
        tar.extractall(home)
    os.unlink(archive)


def main(argv):
    command, home = argv[0], argv[1]
    if command == "walk":
        entries, truncated = walk(home, int(argv[2]))
        json.dump({"entries": entries, "truncated": truncated}, sys.stdout)
        return 0
    if command == "read":
        code, message = read(home, argv[2], int(argv[3]))
        if code:
            sys.stderr.write(message)
        return code
    if command == "unpack":
        unpack(home, argv[2])
        return 0
    sys.stderr.write(f"unknown command {command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
