"""The `libvirt` provider's guest image: a qcow2 base disk, and the kernel and initrd it boots with.

Built once per content (`build_image`), under `<images>/vm-base/<digest>/`:

    base.qcow2   ext4 root: debootstrap'd bookworm (guest-packages.txt) + the guest user (uid 1000,
                 empty home with the standard folders) + /opt/cuagym/{python,server,init,scripts}
    vmlinuz, initrd.img   copied out of the root's /boot (direct kernel boot: no bootloader)
    image.json   what it was built from, sizes, and how long each stage took

The digest covers everything the image holds that cuagym controls: the package list, the init, the
in-guest server's code and the desktop venv's requirements, so a change to any of them asks for a
new image (`require_image` says so) instead of booting a stale one. The root filesystem folder
(`<images>/vm-rootfs`) and the package cache (`<images>/debs`) are reused across builds; a build
copies the root into a staging folder, adds cuagym's files there, then writes the disk from it.

Example:
    >>> image = build_image(VmConfig().images_path, Path("var/desktop-venv"))   # minutes, once
    >>> require_image(VmConfig().images_path, Path("var/desktop-venv")).disk
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from infra.desktop_venv import _requirements_hash, require_desktop_python
from infra.envs.desktop.sandbox import SERVER_PACKAGE
from infra.errors import EnvError
from infra.images.disk import make_ext4, to_qcow2
from infra.images.rootfs import build_rootfs, read_packages, rootfs_digest
from infra.sandbox.command import GUEST_UID, HOME_SUBDIRS

log = logging.getLogger(__name__)

PACKAGES_FILE = Path(__file__).with_name("guest-packages.txt")
INIT_SOURCE = Path(__file__).with_name("guest_init.py")
GUEST_INIT = "/opt/cuagym/init"
GUEST_SCRIPTS = "/opt/cuagym/scripts"
IMAGE_LAYOUT = "5"  # bump when customise() changes what it writes
IMAGE_HINT = "run `cuagym vm image` (or `make vm-image`) to build it (a few minutes, as root)"
# The initramfs needs only what mounts the root; Debian's default (MODULES=most) is ~35 MB, which a
# TCG guest spends seconds decompressing at every boot.
_INITRAMFS_MODULES = ("virtio_pci", "virtio_blk", "ext4", "crc32c_generic")


class VmImageMissingError(EnvError):
    """No guest image matches the current sources (never built, or built from other sources)."""


@dataclass(frozen=True)
class VmImage:
    root: Path

    @property
    def disk(self) -> Path:
        return self.root / "base.qcow2"

    @property
    def kernel(self) -> Path:
        return self.root / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.root / "initrd.img"

    @property
    def manifest(self) -> Path:
        return self.root / "image.json"

    def ready(self) -> bool:
        return self.manifest.is_file() and all(p.is_file() for p in (self.disk, self.kernel, self.initrd))


def guest_packages() -> list[str]:
    return read_packages(PACKAGES_FILE)


def _server_files() -> list[Path]:
    return sorted(p for p in SERVER_PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def image_digest() -> str:
    """Hash of what the image is made of (see the module docstring)."""
    digest = hashlib.sha256()
    for part in (
        IMAGE_LAYOUT,
        rootfs_digest(guest_packages()),
        _requirements_hash(),
        INIT_SOURCE.read_text(),
    ):
        digest.update(part.encode() + b"\0")
    for path in _server_files():
        digest.update(str(path.relative_to(SERVER_PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def image_for(images_dir: Path) -> VmImage:
    return VmImage(images_dir.resolve() / "vm-base" / image_digest())


def require_image(images_dir: Path) -> VmImage:
    image = image_for(images_dir)
    if not image.ready():
        built = sorted(p.name for p in (images_dir / "vm-base").glob("*") if (p / "image.json").is_file())
        state = f"the images there are for other sources ({', '.join(built)})" if built else "none is built"
        raise VmImageMissingError(f"no guest image at {image.root} ({state})", hint=IMAGE_HINT)
    return image


def build_image(images_dir: Path, desktop_venv: Path, *, force: bool = False) -> VmImage:
    """Build (or reuse) the guest image for the current sources; returns it. Needs root (debootstrap,
    chroot, and files owned by the guest user). Raises SandboxUnavailableError for a missing tool or
    a failed stage, with the tail of its log."""
    image = image_for(images_dir)
    if image.ready() and not force:
        return image
    venv = require_desktop_python(desktop_venv)
    images_dir = images_dir.resolve()
    timings: dict[str, float] = {}
    started = time.monotonic()
    rootfs = build_rootfs(images_dir / "vm-rootfs", guest_packages(), cache_dir=images_dir / "debs")
    timings["rootfs_s"] = time.monotonic() - started

    staging = images_dir / "vm-staging"
    building = image.root.with_name(image.root.name + ".building")
    for folder in (staging, building):
        shutil.rmtree(folder, ignore_errors=True)
    building.mkdir(parents=True)
    try:
        mark = time.monotonic()
        subprocess.run(["cp", "-a", str(rootfs), str(staging)], check=True)
        customise(staging, venv)
        timings["customise_s"] = time.monotonic() - mark
        mark = time.monotonic()
        raw = make_ext4(staging, building / "disk.raw")
        to_qcow2(raw, building / "base.qcow2")
        raw.unlink()
        timings["disk_s"] = time.monotonic() - mark
        kernel, initrd = _boot_files(staging)
        shutil.copyfile(kernel, building / "vmlinuz")
        shutil.copyfile(initrd, building / "initrd.img")
        (building / "image.json").write_text(
            json.dumps(
                {
                    "digest": image.root.name,
                    "kernel": kernel.name,
                    "packages": guest_packages(),
                    "disk_bytes": (building / "base.qcow2").stat().st_size,
                    "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    **{k: round(v, 1) for k, v in timings.items()},
                },
                indent=2,
            )
            + "\n"
        )
        shutil.rmtree(image.root, ignore_errors=True)
        building.rename(image.root)
    finally:
        shutil.rmtree(building, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
    # The base disk must stay as built: every env's overlay reads through to it.
    image.disk.chmod(0o444)
    log.info("guest image %s built in %.0f s (%s)", image.root, time.monotonic() - started, timings)
    return image


def customise(root: Path, venv: Path) -> None:
    """Add cuagym's part to a root filesystem folder (a copy: the debootstrap'd one stays clean)."""
    _add_user(root)
    home = root / "home/user"
    shutil.rmtree(home, ignore_errors=True)
    for folder in (home, *(home / sub for sub in HOME_SUBDIRS)):
        folder.mkdir(parents=True, exist_ok=True)
        os.chown(folder, GUEST_UID, GUEST_UID)
    opt = root / "opt/cuagym"
    opt.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", f"{venv}/.", str(opt / "python")], check=True)
    shutil.copytree(
        SERVER_PACKAGE, opt / "server/desktop_server", ignore=shutil.ignore_patterns("__pycache__")
    )
    init = root / GUEST_INIT.lstrip("/")
    shutil.copyfile(INIT_SOURCE, init)
    init.chmod(0o755)
    scripts = root / GUEST_SCRIPTS.lstrip("/")
    scripts.mkdir(mode=0o700)
    os.chown(scripts, GUEST_UID, GUEST_UID)
    (root / "etc/hostname").write_text("guest\n")
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost guest\n")
    (root / "etc/fstab").write_text(
        "# the root is mounted by the initramfs (rw on the kernel command line)\n"
    )
    _font_cache(root)
    _small_initramfs(root)


def _add_user(root: Path) -> None:
    """The guest user as in an OSWorld guest and the local sandbox: `user`, uid/gid 1000, /home/user."""
    for name, line in (
        ("passwd", f"user:x:{GUEST_UID}:{GUEST_UID}:user:/home/user:/bin/bash\n"),
        ("group", f"user:x:{GUEST_UID}:\n"),
        ("shadow", "user:*:19000:0:99999:7:::\n"),
    ):
        path = root / "etc" / name
        text = path.read_text()
        if not any(existing.startswith("user:") for existing in text.splitlines()):
            path.write_text(text + line)


def _font_cache(root: Path) -> None:
    """A system font cache that stays valid on the disk. fontconfig checks each cache against its
    folder's mtime to the nanosecond, and `mkfs.ext4 -d` keeps only whole seconds: without this, the
    guest's first GUI program rebuilds the cache into ~/.cache/fontconfig (noise in every state view)."""
    for fonts in (root / "usr/share/fonts", root / "usr/local/share/fonts"):
        for folder in [fonts, *(p for p in fonts.rglob("*") if p.is_dir())] if fonts.is_dir() else []:
            mtime = int(folder.stat().st_mtime)
            os.utime(folder, (mtime, mtime))
    _chroot(root, ["fc-cache", "--system-only", "--really-force"])


def _chroot(root: Path, argv: list[str]) -> None:
    done = subprocess.run(
        ["chroot", str(root), *argv],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"},
    )
    if done.returncode != 0:
        raise EnvError(
            f"{argv[0]} failed in the guest root: {(done.stderr or done.stdout)[-1500:]}",
            hint="delete var/images/vm-rootfs to rebuild the root from scratch",
        )


def _small_initramfs(root: Path) -> None:
    """Regenerate the initrd with only the modules that mount the root (see _INITRAMFS_MODULES)."""
    conf = root / "etc/initramfs-tools"
    (conf / "conf.d").mkdir(parents=True, exist_ok=True)
    (conf / "conf.d/cuagym").write_text("MODULES=list\nCOMPRESS=gzip\n")
    (conf / "modules").write_text("\n".join(_INITRAMFS_MODULES) + "\n")
    kernel, _ = _boot_files(root)
    version = kernel.name.removeprefix("vmlinuz-")
    proc = root / "proc"
    subprocess.run(["mount", "-t", "proc", "proc", str(proc)], check=True)
    try:
        _chroot(root, ["update-initramfs", "-u", "-k", version])
    finally:
        subprocess.run(["umount", "-l", str(proc)], check=False)


def _boot_files(root: Path) -> tuple[Path, Path]:
    kernels = sorted((root / "boot").glob("vmlinuz-*"))
    if not kernels:
        raise EnvError(f"no kernel in {root}/boot", hint="guest-packages.txt must list linux-image-amd64")
    kernel = kernels[-1]
    return kernel, root / "boot" / ("initrd.img-" + kernel.name.removeprefix("vmlinuz-"))
