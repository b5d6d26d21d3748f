"""Disk images for VM guests, made without loop devices or mounts (so without extra privileges).

`make_ext4` writes a folder into a fresh ext4 file system image (`mkfs.ext4 -d`), `to_qcow2` converts
a raw image to qcow2 (zeros are skipped: the result holds only what was written), and
`create_overlay` starts a copy-on-write qcow2 on top of a base one, which it never writes to.

    make_ext4(Path("var/images/vm-staging"), Path("disk.raw"))
    to_qcow2(Path("disk.raw"), Path("base.qcow2"))
    create_overlay(Path("base.qcow2"), Path("env.qcow2"))
    backing_file(Path("env.qcow2"))  # Path("…/base.qcow2")
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from infra.errors import SandboxUnavailableError

INSTALL_HINT = "run `make setup` (infra/setup/apt-packages.txt lists e2fsprogs and qemu-utils)"
_MB = 1024 * 1024


class DiskImageError(SandboxUnavailableError):
    """A disk image could not be made or read (its tool is missing or failed)."""


def _tool(name: str) -> str:
    path = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/sbin") / name) if p.exists()), None
    )
    if path is None:
        raise DiskImageError(f"{name} is not installed, so no VM disk can be made", hint=INSTALL_HINT)
    return path


def _run(argv: list[str], what: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise DiskImageError(
            f"{what} failed (exit {done.returncode}): {(done.stderr or done.stdout).strip()[-1500:]}",
            hint=f"the command was: {' '.join(argv)}",
        )
    return done.stdout


def tree_bytes(root: Path) -> int:
    """Bytes the files under `root` occupy, in 4 KiB blocks (hard links counted once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            st = os.lstat(os.path.join(folder, name))
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            total += -(-st.st_size // 4096) * 4096
    return total


def make_ext4(source: Path, image: Path, *, size_mb: int | None = None, free_mb: int = 1024) -> Path:
    """A raw ext4 image at `image` holding `source`'s tree (owners and modes kept: run as root to
    keep them). Its size is `size_mb`, else what the tree needs plus a third plus `free_mb`."""
    if size_mb is None:
        size_mb = int(tree_bytes(source) * 4 / 3 / _MB) + free_mb
    image.unlink(missing_ok=True)
    with image.open("wb") as fh:
        fh.truncate(size_mb * _MB)  # sparse: only what mkfs writes takes space
    argv = [_tool("mkfs.ext4"), "-q", "-F", "-L", "cuagym-root", "-d", str(source), str(image)]
    try:
        _run(argv, f"mkfs.ext4 of {source}")
    except BaseException:
        image.unlink(missing_ok=True)
        raise
    return image


def to_qcow2(raw: Path, qcow2: Path) -> Path:
    qcow2.unlink(missing_ok=True)
    _run(
        [_tool("qemu-img"), "convert", "-q", "-f", "raw", "-O", "qcow2", str(raw), str(qcow2)],
        "qemu-img convert",
    )
    return qcow2


def create_overlay(base: Path, overlay: Path) -> Path:
    """A new qcow2 at `overlay` whose unwritten blocks read from `base` (recorded by absolute path)."""
    if not base.is_file():
        raise DiskImageError(f"no base image at {base}", hint="build the guest image first")
    argv = [_tool("qemu-img"), "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b", str(base.resolve())]
    _run([*argv, str(overlay)], f"qemu-img create of the overlay {overlay}")
    return overlay


def image_info(image: Path) -> dict:
    """`qemu-img info` as JSON (-U: readable while a running VM holds the image)."""
    out = _run([_tool("qemu-img"), "info", "-U", "--output=json", str(image)], f"qemu-img info of {image}")
    return json.loads(out)


def backing_file(image: Path) -> Path | None:
    backing = image_info(image).get("backing-filename")
    return Path(backing) if backing else None
