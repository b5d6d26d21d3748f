"""The `docker` provider's image: the desktop (Xvfb, openbox, LibreOffice, Chromium, xterm) and the
in-guest server, built here from Debian's packages — no registry is reachable.

Two layers of tags, each named by the hash of what went into it, so an unchanged input is never
rebuilt and a changed one never reuses a stale image:
- `cuagym-desktop-base:<rootfs digest>`: a `docker import` of the root filesystem debootstrap made
  (infra/images/rootfs.py, from infra/images/desktop-packages.txt);
- `cuagym-desktop:<digest>`: a Dockerfile on top adding the guest user, the desktop venv (the same
  one the `desktop` provider binds in: a venv of bookworm's /usr/bin/python3 runs unchanged at the
  same path in a bookworm image), the server code and the hub route. Built with no network.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import tempfile
from pathlib import Path

from infra.desktop_venv import ensure_desktop_python
from infra.envs.desktop.sandbox import (
    GUEST_PYTHON,
    GUEST_RUN_DIR,
    GUEST_SCRIPTS,
    GUEST_SERVER_ROOT,
    SERVER_PACKAGE,
)
from infra.envs.local import HUB_ROUTE, HUB_ROUTE_SOURCE
from infra.errors import SandboxUnavailableError
from infra.guest_python import _MARKER as VENV_MARKER
from infra.images.rootfs import build_rootfs, read_packages, rootfs_digest
from infra.sandbox import GUEST_HOME, GUEST_UID
from infra.settings import get_settings

log = logging.getLogger(__name__)

BASE_REPO = "cuagym-desktop-base"
IMAGE_REPO = "cuagym-desktop"
GUEST_PATH = f"{GUEST_PYTHON}/bin:/usr/local/bin:/usr/bin:/bin"

DOCKERFILE = f"""\
FROM {{base}}
RUN groupadd -g {GUEST_UID} user && useradd -u {GUEST_UID} -g {GUEST_UID} -d {GUEST_HOME} -s /bin/bash user \\
 && mkdir -p {GUEST_HOME} {GUEST_SCRIPTS} {GUEST_RUN_DIR} /run/user {Path(HUB_ROUTE).parent} \\
 && chown {GUEST_UID}:{GUEST_UID} {GUEST_HOME} /run/user
COPY python {GUEST_PYTHON}
COPY server {GUEST_SERVER_ROOT}
COPY hub_route.py {HUB_ROUTE}
ENV HOME={GUEST_HOME} USER=user LOGNAME=user SHELL=/bin/bash LANG=C.UTF-8 LC_ALL=C.UTF-8 \\
    PATH={GUEST_PATH} TMPDIR=/tmp XDG_RUNTIME_DIR=/run/user PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
USER {GUEST_UID}:{GUEST_UID}
WORKDIR {GUEST_HOME}
LABEL org.cuagym.image=desktop
"""


def _images_dir() -> Path:
    return get_settings().var_dir / "images"


def _tree_hash(digest, root: Path) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())


def image_tag(desktop_python: Path) -> str:
    """The desktop image's tag for the inputs as they are now (packages, venv, server code)."""
    digest = hashlib.sha256()
    digest.update(rootfs_digest(read_packages()).encode())
    digest.update(DOCKERFILE.encode())
    digest.update((desktop_python / VENV_MARKER).read_bytes())  # the venv's requirements hash
    _tree_hash(digest, SERVER_PACKAGE)
    digest.update(HUB_ROUTE_SOURCE.read_bytes())
    return f"{IMAGE_REPO}:{digest.hexdigest()[:16]}"


def image_present(client, tag: str) -> bool:
    import docker

    try:
        client.images.get(tag)
    except docker.errors.ImageNotFound:
        return False
    return True


def ensure_image(client, *, desktop_python: Path | None = None) -> str:
    """Build (or reuse) the desktop image; returns its tag. Raises SandboxUnavailableError."""
    python = ensure_desktop_python(desktop_python or get_settings().desktop_venv_path)
    tag = image_tag(python)
    if image_present(client, tag):
        return tag
    base = ensure_base(client)
    with tempfile.TemporaryDirectory(prefix="cuagym-image-") as tmp:
        context = Path(tmp)
        (context / "Dockerfile").write_text(DOCKERFILE.format(base=base))
        shutil.copytree(python, context / "python", symlinks=True)
        shutil.copytree(
            SERVER_PACKAGE,
            context / "server" / SERVER_PACKAGE.name,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        shutil.copyfile(HUB_ROUTE_SOURCE, context / "hub_route.py")
        log.info("building %s on %s", tag, base)
        _build(client, context, tag)
    return tag


def _build(client, context: Path, tag: str) -> None:
    import docker

    try:
        client.images.build(path=str(context), tag=tag, rm=True, forcerm=True, network_mode="none")
    except docker.errors.BuildError as exc:
        lines = [str(step.get("stream") or step.get("error") or "").rstrip() for step in exc.build_log]
        tail = "\n".join(line for line in lines if line)[-2000:]
        raise SandboxUnavailableError(
            f"building the desktop image failed: {exc.msg}\n{tail}",
            hint="see the Dockerfile in infra/envs/docker/image.py",
        ) from None


def ensure_base(client) -> str:
    """The imported root filesystem's tag, debootstrapping and importing it when missing."""
    packages = read_packages()
    tag = f"{BASE_REPO}:{rootfs_digest(packages)}"
    if image_present(client, tag):
        return tag
    images = _images_dir()
    rootfs = build_rootfs(images / "desktop-rootfs", packages, cache_dir=images / "debs")
    repository, _, version = tag.partition(":")
    log.info("importing %s as %s", rootfs, tag)
    # tar streams the tree (numeric owners kept) straight into the engine: no 1 GB temp file.
    tar = subprocess.Popen(
        ["tar", "--numeric-owner", "--xattrs", "-C", str(rootfs), "-c", "."],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert tar.stdout is not None
    try:
        client.api.import_image_from_stream(tar.stdout, repository=repository, tag=version)
    finally:
        tar.stdout.close()
        stderr = tar.stderr.read().decode(errors="replace") if tar.stderr else ""
        code = tar.wait()
    if code != 0 or not image_present(client, tag):
        raise SandboxUnavailableError(
            f"importing {rootfs} into docker failed (tar exit {code}): {stderr[-500:]}",
            hint="check the engine's log (var/docker/dockerd.log when cuagym started it)",
        )
    return tag
