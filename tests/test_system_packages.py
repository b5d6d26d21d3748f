"""Every program and system Python module cuagym uses comes from a Debian package listed in
infra/setup/apt-packages.txt (directly or as a dependency): a package installed by hand on one
machine must not be what makes the tests pass there (python3-tk once did)."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from infra.desktop_venv import ensure_desktop_python
from infra.envs.desktop.sandbox import REQUIRED_PROGRAMS
from infra.settings import PROJECT_ROOT, get_settings

APT_LIST = PROJECT_ROOT / "infra" / "setup" / "apt-packages.txt"
PROGRAMS = (
    *REQUIRED_PROGRAMS,
    *("bwrap", "prlimit", "chromium", "xdg-open", "xterm", "nano"),
    *(
        "dockerd",
        "docker-init",
        "debootstrap",
    ),  # the docker provider and its image (tar, chroot, mount: essential)
    # the libvirt provider: its daemons, QEMU, and the tools that make its disks (tests read them with debugfs)
    *("libvirtd", "virtlogd", "qemu-system-x86_64", "qemu-img", "mkfs.ext4", "debugfs"),
)
# System modules the desktop guest imports, by interpreter: pyautogui (OSWorld's PythonController
# imports it before every command) -> mouseinfo -> tkinter in the desktop venv; the accessibility tree
# reader (infra/desktop_server/a11y.py) -> pyatspi and gi in Debian's own Python.
DESKTOP_VENV, SYSTEM = "desktop venv", "/usr/bin/python3"
GUEST_MODULES = [(DESKTOP_VENV, "tkinter"), (DESKTOP_VENV, "_tkinter"), (SYSTEM, "gi"), (SYSTEM, "pyatspi")]


def listed_packages() -> set[str]:
    lines = (line.split("#", 1)[0].strip() for line in APT_LIST.read_text().splitlines())
    return {line for line in lines if line}


@cache
def closure() -> frozenset[str]:
    """The listed packages and everything they depend on (Depends and Pre-Depends, any alternative)."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    depends: dict[str, set[str]] = {}
    for line in out.splitlines():
        name, deps, provides = line.split("\t")
        depends.setdefault(name, set()).update(_names(deps))
        for virtual in _names(provides):  # a dependency on a virtual package reaches its providers
            depends.setdefault(virtual, set()).add(name)
    seen, stack = set(), list(listed_packages())
    while stack:
        pkg = stack.pop()
        if pkg not in seen:
            seen.add(pkg)
            stack.extend(depends.get(pkg, ()))
    return frozenset(seen)


def _names(field: str) -> set[str]:
    return {
        re.split(r"[\s:(]", alt.strip(), maxsplit=1)[0] for alt in re.split(r"[,|]", field) if alt.strip()
    }


def owner(path: Path) -> str:
    real = path.resolve()
    # merged /usr: a package may list its file as /bin/x (nano does), which is /usr/bin/x on disk
    legacy = [str(Path("/", *real.parts[2:]))] if real.parts[1:2] == ("usr",) else []
    out = subprocess.run(["dpkg", "-S", str(real)], capture_output=True, text=True)
    for alias in legacy if out.returncode != 0 else []:
        out = subprocess.run(["dpkg", "-S", alias], capture_output=True, text=True)
    assert out.returncode == 0, f"{path} belongs to no Debian package: {out.stderr.strip()}"
    return out.stdout.split(":", 1)[0].split(",")[0].strip()


def test_the_desktop_image_holds_what_a_desktop_on_this_machine_has():
    """The `docker` provider's image and the `desktop` provider's host give the guest the same
    packages: each one the image installs is one the install step installs here."""
    from infra.images.rootfs import read_packages

    image = set(read_packages())
    assert {"libreoffice-calc", "chromium", "xvfb", "openbox", "xterm"} <= image
    assert image <= listed_packages(), sorted(image - listed_packages())


def test_the_install_step_reads_the_list():
    script = (PROJECT_ROOT / "infra" / "setup" / "system-deps.sh").read_text()
    assert "apt-packages.txt" in script
    assert "python3-tk" in listed_packages()


@pytest.mark.parametrize("program", PROGRAMS)
def test_programs_come_from_listed_packages(program):
    path = shutil.which(program)
    assert path, f"{program} is not installed: run `make setup` (infra/setup/apt-packages.txt)"
    assert owner(Path(path)) in closure(), f"{program} comes from {owner(Path(path))}, which is not listed"


@pytest.mark.parametrize(("interpreter", "module"), GUEST_MODULES)
def test_guest_system_modules_import_and_come_from_listed_packages(interpreter, module):
    python = SYSTEM
    if interpreter == DESKTOP_VENV:
        python = str(ensure_desktop_python(get_settings().desktop_venv_path) / "bin" / "python3")
    out = subprocess.run(
        [python, "-c", f"import {module}; print({module}.__file__)"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, f"the desktop guest cannot import {module}: {out.stderr.strip()[-400:]}"
    location = Path(out.stdout.strip())
    if location.is_relative_to("/usr"):  # from Debian, not from the venv's own site-packages
        assert owner(location) in closure(), f"{module} comes from {owner(location)}, which is not listed"
