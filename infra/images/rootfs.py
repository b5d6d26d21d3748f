"""A Debian root filesystem for guest images, made by debootstrap from Debian's own mirror.

No registry is reachable from where cuagym runs, so guest images start from a folder debootstrap
fills with the packages a guest needs (a `docker import` of it is the container base; a disk image
made of it is the VM base). The folder is reused while its package list and suite are unchanged
(a marker holds their hash) and downloaded packages are kept in a cache folder, so a rebuild after a
change fetches only what is new.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from infra.errors import ConfigError, SandboxUnavailableError

log = logging.getLogger(__name__)

DESKTOP_PACKAGES_FILE = Path(__file__).parent / "desktop-packages.txt"
SUITE = "bookworm"  # the host's release: its /usr/bin/python3 built the venvs copied into images
DEFAULT_MIRROR = "http://deb.debian.org/debian"
_MARKER = ".cuagym-rootfs"


def read_packages(path: Path = DESKTOP_PACKAGES_FILE) -> list[str]:
    """Package names of a list file: one per line, `#` starts a comment."""
    names = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
    return [name for name in names if name]


def mirror() -> str:
    return os.environ.get("CUAGYM_DEBIAN_MIRROR", DEFAULT_MIRROR)


def rootfs_digest(packages: Sequence[str], suite: str = SUITE) -> str:
    text = "\n".join([suite, "minbase", *sorted(set(packages))])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def rootfs_ready(dest: Path, packages: Sequence[str], suite: str = SUITE) -> bool:
    marker = dest / _MARKER
    return marker.is_file() and marker.read_text().strip() == rootfs_digest(packages, suite)


def build_rootfs(dest: Path, packages: Sequence[str], *, cache_dir: Path, suite: str = SUITE) -> Path:
    """Debootstrap `suite` (minbase) into `dest` and apt-get install `packages` there, unless `dest`
    already holds exactly that.

    Two stages because debootstrap's own resolver is not apt's: given LibreOffice and Chromium in
    --include it picks alternatives that break each other (libreoffice-core-nogui against
    libreoffice-gtk3) and leaves half the desktop unconfigured. Runs as root (debootstrap chroots,
    the package cache is bind-mounted). A failed run leaves nothing half-built at `dest`: it builds in
    a sibling folder and renames it into place. Raises SandboxUnavailableError when debootstrap is
    missing or a stage fails (with the tail of the log)."""
    if rootfs_ready(dest, packages, suite):
        return dest
    if shutil.which("debootstrap") is None:
        raise SandboxUnavailableError(
            "debootstrap is not installed, so no guest image can be built",
            hint="run `make setup` (infra/setup/apt-packages.txt lists debootstrap)",
        )
    if os.geteuid() != 0:
        raise ConfigError(
            "building a guest root filesystem needs root (debootstrap chroots)", hint="run it as root"
        )
    building = dest.with_name(dest.name + ".building")
    _remove(building)
    cache_dir = cache_dir.resolve()
    cache_dir.mkdir(parents=True, exist_ok=True)
    building.parent.mkdir(parents=True, exist_ok=True)
    log_path = dest.with_name(dest.name + ".build.log")
    log.info("debootstrap %s + %d packages into %s (log: %s)", suite, len(packages), dest, log_path)
    with log_path.open("w") as out:
        _stage(
            out,
            log_path,
            ["debootstrap", "--variant=minbase", f"--cache-dir={cache_dir}", suite, str(building), mirror()],
        )
        _install(building, packages, cache_dir, out, log_path)
    # Package lists are not part of a guest: they would only make images bigger.
    shutil.rmtree(building / "var/lib/apt/lists", ignore_errors=True)
    (building / "var/lib/apt/lists/partial").mkdir(parents=True, exist_ok=True)
    (building / _MARKER).write_text(rootfs_digest(packages, suite) + "\n")
    _remove(dest)
    building.rename(dest)
    return dest


def _remove(root: Path) -> None:
    """Delete a (half-)built root, first unmounting what a killed build left mounted in it: removing
    through a bind mount would delete the package cache itself."""
    prefix = str(root.resolve()) + "/"
    with open("/proc/mounts") as mounts:
        points = [line.split()[1] for line in mounts if line.split()[1].startswith(prefix)]
    for point in sorted(points, reverse=True):
        subprocess.run(["umount", "-l", point], check=False, capture_output=True)
    shutil.rmtree(root, ignore_errors=True)


def _install(root: Path, packages: Sequence[str], cache_dir: Path, out, log_path: Path) -> None:
    """apt-get install `packages` inside `root` (a chroot with /proc and the package cache mounted)."""
    shutil.copyfile("/etc/resolv.conf", root / "etc/resolv.conf")
    policy = root / "usr/sbin/policy-rc.d"  # no service starts inside a chroot being built
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    mounts = [
        (["mount", "-t", "proc", "proc", str(root / "proc")], root / "proc"),
        (
            ["mount", "--bind", str(cache_dir), str(root / "var/cache/apt/archives")],
            root / "var/cache/apt/archives",
        ),
    ]
    mounted: list[Path] = []
    # apt locks the archives folder: two builds sharing the cache take turns instead of failing.
    lock = (cache_dir / ".cuagym-build.lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    try:
        for argv, point in mounts:
            _stage(out, log_path, argv)
            mounted.append(point)
        _stage(out, log_path, ["chroot", str(root), "apt-get", "update", "-q"], env=env)
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *sorted(set(packages))]
        _stage(out, log_path, ["chroot", str(root), *install], env=env)
    finally:
        for point in reversed(mounted):
            subprocess.run(["umount", "-l", str(point)], check=False, stdout=out, stderr=subprocess.STDOUT)
        policy.unlink(missing_ok=True)
        lock.close()


def _stage(out, log_path: Path, argv: list[str], *, env: dict[str, str] | None = None) -> None:
    out.write(f"$ {' '.join(argv)}\n")
    out.flush()
    done = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, check=False, env=env)
    if done.returncode != 0:
        out.flush()
        tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-15:])
        raise SandboxUnavailableError(
            f"{argv[0]} {argv[1] if argv[0] == 'chroot' else ''} failed (exit {done.returncode}); "
            f"the build log ends with:\n{tail}",
            hint=f"check that {mirror()} is reachable (CUAGYM_DEBIAN_MIRROR picks another); log at {log_path}",
        )
