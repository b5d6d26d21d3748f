"""`cuagym vm …`: the `libvirt` provider's guest image and daemon (infra/envs/libvirt)."""

from __future__ import annotations

import json
import time

import click

from flows.cli.console import console, handle_errors
from infra.settings import get_settings


@click.group()
def vm() -> None:
    """Build the guest image of the libvirt provider and start libvirtd where systemd does not."""


@vm.command("image")
@click.option("--force", is_flag=True, help="Rebuild even when an image for the current sources exists.")
@handle_errors
def image(force: bool) -> None:
    """Build the VM guest image (debootstrap'd bookworm + X session + in-guest server), as root.

    The root filesystem and the package cache are kept under var/images and reused: the first build
    takes a few minutes, a rebuild after a change to the server or the init well under a minute.

    Example:

        cuagym vm image
    """
    from infra.desktop_venv import ensure_desktop_python
    from infra.envs.libvirt import VmConfig, build_image

    started = time.monotonic()
    built = build_image(
        VmConfig().images_path, ensure_desktop_python(get_settings().desktop_venv_path), force=force
    )
    info = json.loads(built.manifest.read_text())
    console.print(
        f"guest image {built.root} ({info['disk_bytes'] / 2**20:.0f} MiB qcow2, kernel {info['kernel']}) "
        f"ready in {time.monotonic() - started:.0f} s"
    )


@vm.command("daemon")
@handle_errors
def daemon() -> None:
    """Start virtlogd and libvirtd (daemonised) unless qemu:///system already answers, as root.

    For hosts without systemd (containers, CI); elsewhere `systemctl start libvirtd` does it.

    Example:

        cuagym vm daemon
    """
    from infra.envs.libvirt import VmConfig, ensure_libvirtd

    uri = VmConfig().uri
    ensure_libvirtd(uri)
    console.print(f"libvirt answers at {uri}")
