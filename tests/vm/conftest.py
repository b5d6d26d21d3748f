"""Fixtures for the libvirt provider's tests: a real libvirtd (started when this host has none) and
the guest image (built when missing: a few minutes the first time, cached under var/images).

Everything that needs root, libvirtd or a built image skips with the reason when the machine cannot
give it; the unit tests (test_libvirt_units.py) need none of them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from infra.settings import get_settings


def _skip_unless_vm_host() -> None:
    if os.geteuid() != 0:
        pytest.skip("the libvirt provider's guests need root here (libvirtd, image build)")
    for tool in ("libvirtd", "qemu-system-x86_64", "qemu-img", "debootstrap"):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            pytest.skip(f"{tool} is not installed (`make setup` installs it)")
    pytest.importorskip("libvirt", reason="libvirt-python is not installed")


@pytest.fixture(scope="session")
def libvirtd():
    """qemu:///system, with virtlogd and libvirtd started for the session when none runs (and
    stopped after it: only those this fixture started)."""
    from infra.envs.libvirt import VmConfig, ensure_libvirtd
    from infra.envs.libvirt.connection import stop_daemons

    _skip_unless_vm_host()
    uri = VmConfig().uri
    started = ensure_libvirtd(uri)
    yield uri
    stop_daemons(started)


@pytest.fixture(scope="session")
def vm_image(libvirtd):
    from infra.desktop_venv import ensure_desktop_python
    from infra.envs.libvirt import VmConfig, build_image

    return build_image(VmConfig().images_path, ensure_desktop_python(get_settings().desktop_venv_path))


@pytest.fixture
def vm_root():
    """A folder for envs that QEMU (run as libvirt-qemu) can reach: pytest's tmp is 0700."""
    root = Path(tempfile.mkdtemp(prefix="cuagym-vm-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)
