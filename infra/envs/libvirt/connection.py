"""Reaching libvirt: the connection (with errors that say what to do), and a libvirtd for machines
without systemd (tests, containers) started on demand.

libvirt-python is imported lazily, so the rest of cuagym imports without it.
"""

from __future__ import annotations

import contextlib
import grp
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from infra.errors import EnvError

log = logging.getLogger(__name__)

DAEMON_HINT = (
    "start libvirtd as root: `systemctl start libvirtd`, or where there is no systemd `libvirtd -d` "
    "(`make test-vm` starts one); `make setup` installs it (libvirt-daemon-system)"
)


VIRTLOGD_SOCKET = "/run/libvirt/virtlogd-sock"


class LibvirtUnavailableError(EnvError):
    """libvirt (its Python binding, or the daemon behind the URI) cannot be reached."""


def libvirt_module() -> Any:
    try:
        import libvirt
    except ImportError:
        raise LibvirtUnavailableError(
            "the libvirt Python binding (libvirt-python) is not installed",
            hint="run `make setup` (it needs libvirt-dev and pkg-config to build)",
        ) from None
    # libvirt prints every error to stderr by default; each one is raised as an exception here instead.
    libvirt.registerErrorHandler(lambda _ctx, _err: None, None)
    return libvirt


def connect(uri: str) -> Any:
    """An open virConnect to `uri`; LibvirtUnavailableError (with the daemon's answer) otherwise."""
    libvirt = libvirt_module()
    try:
        return libvirt.open(uri)
    except libvirt.libvirtError as exc:
        raise LibvirtUnavailableError(
            f"cannot connect to libvirt at {uri}: {exc}", hint=DAEMON_HINT
        ) from None


def daemon_running(uri: str) -> bool:
    try:
        connect(uri).close()
    except LibvirtUnavailableError:
        return False
    return True


def ensure_libvirtd(uri: str = "qemu:///system", *, timeout_s: float = 30.0) -> list[int]:
    """Start virtlogd and libvirtd (each `-d`, daemonised: they outlive this process, as system
    services would) unless they already run; returns the pids of those it started (for
    `stop_daemons`). For hosts without systemd; needs root. libvirtd starts QEMU with its console
    and log files opened by virtlogd, so a domain cannot start without it."""
    _kvm_node_as_udev_sets_it()
    started = []
    if not _answers(VIRTLOGD_SOCKET):
        started.append(_start_daemon("virtlogd"))
    if daemon_running(uri):
        return started
    started.append(_start_daemon("libvirtd"))
    deadline = time.monotonic() + timeout_s
    while not daemon_running(uri):
        if time.monotonic() > deadline:
            raise LibvirtUnavailableError(
                f"libvirtd started but {uri} did not answer in {timeout_s:g} s", hint=DAEMON_HINT
            )
        time.sleep(0.2)
    log.info("started libvirtd for %s", uri)
    return started


def stop_daemons(pids: list[int], *, timeout_s: float = 30.0) -> None:
    """End the daemons `ensure_libvirtd` started (by pid, libvirtd first), waiting for each to go."""
    for pid in reversed(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)


def _answers(socket_path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(socket_path)
        except OSError:  # missing, or stale (its daemon was killed)
            return False
    return True


def _start_daemon(name: str) -> int:
    binary = shutil.which(name) or f"/usr/sbin/{name}"
    if not os.path.exists(binary):
        raise LibvirtUnavailableError(f"{name} is not installed", hint=DAEMON_HINT)
    done = subprocess.run([binary, "-d"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise LibvirtUnavailableError(
            f"{name} -d failed (exit {done.returncode}): {done.stderr.strip()[-800:]}", hint=DAEMON_HINT
        )
    # `-d` forks away; the daemon writes its pid where the Debian package's init script reads it.
    pid_file = Path(f"/run/{name}.pid")
    deadline = time.monotonic() + 10
    while not pid_file.is_file() or not pid_file.read_text().strip():
        if time.monotonic() > deadline:
            raise LibvirtUnavailableError(f"{name} -d started but wrote no {pid_file}", hint=DAEMON_HINT)
        time.sleep(0.05)
    return int(pid_file.read_text().strip())


def _kvm_node_as_udev_sets_it() -> None:
    """Give /dev/kvm to group kvm, mode 0660, as udev does on a systemd host. Without udev the node
    is root-only; libvirt 9.0 then finds KVM "enabled when probing but not available now" at every
    lookup and re-probes QEMU each time (a minute per defineXML). Guests still run under TCG
    (VmConfig.domain_type): this only makes libvirt's capability cache stick."""
    kvm = Path("/dev/kvm")
    try:
        st = kvm.stat()
        group = grp.getgrnam("kvm")
    except (OSError, KeyError):
        return
    if st.st_gid == 0 and st.st_mode & 0o777 == 0o600:
        os.chown(kvm, 0, group.gr_gid)
        kvm.chmod(0o660)
        log.info("gave /dev/kvm to group kvm (0660), as udev would")
