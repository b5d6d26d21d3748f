"""The Docker engine the `docker` provider talks to: the one on DOCKER_HOST or /var/run/docker.sock,
or — where no engine runs, as on a fresh CI machine with only the docker.io package — one started
here for the caller.

A dockerd started here has no bridge and no iptables rules: desktops run with no network at all
(their server is reached through a bind-mounted Unix socket), so the engine needs none either. It
keeps running after the command that started it, like a system service, with its log at
var/docker/dockerd.log.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from infra.errors import SandboxUnavailableError
from infra.server.daemon import Daemon
from infra.settings import get_settings

DOCKER_SOCKET = Path("/var/run/docker.sock")
_START_TIMEOUT_S = 60.0


def docker_client(*, start: bool = True):
    """A connected `docker.DockerClient`, starting a local dockerd when none answers and `start` is
    set (root only). Raises SandboxUnavailableError with what to do when there is no engine."""
    import docker

    client = _connect(docker)
    if client is not None:
        return client
    if not start or "DOCKER_HOST" in os.environ:
        raise SandboxUnavailableError(
            f"no Docker engine answers at {os.environ.get('DOCKER_HOST', DOCKER_SOCKET)}",
            hint="start dockerd (or unset DOCKER_HOST to let cuagym start a local one)",
        )
    daemon = start_dockerd()
    deadline = time.monotonic() + _START_TIMEOUT_S
    while time.monotonic() < deadline:
        client = _connect(docker)
        if client is not None:
            return client
        if not daemon.running():
            break
        time.sleep(0.3)
    raise SandboxUnavailableError(
        f"dockerd did not come up; its log ends with:\n{daemon.log_tail(15)}",
        hint=f"see {daemon.log}; the engine needs cgroups and overlayfs (or vfs) on this machine",
    )


def _connect(docker):
    try:
        client = docker.from_env(timeout=120)
        client.ping()
    except docker.errors.DockerException:
        return None
    return client


def start_dockerd() -> Daemon:
    """Spawn dockerd in its own session (it outlives this process). Root only."""
    dockerd = shutil.which("dockerd")
    if dockerd is None:
        raise SandboxUnavailableError(
            "dockerd is not installed, so the docker provider has no engine",
            hint="run `make setup` (infra/setup/apt-packages.txt lists docker.io)",
        )
    if os.geteuid() != 0:
        raise SandboxUnavailableError(
            "no Docker engine is running, and only root can start one",
            hint="start dockerd as a service (systemctl start docker), or run as root",
        )
    var = get_settings().var_dir / "docker"
    argv = [
        dockerd,
        "--iptables=false",
        "--ip6tables=false",
        "--bridge=none",
        "-H",
        f"unix://{DOCKER_SOCKET}",
    ]
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    return Daemon.spawn("dockerd", argv, env=env, cwd=Path("/"), log=var / "dockerd.log")
