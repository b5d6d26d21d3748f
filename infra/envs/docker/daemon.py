"""The Docker engine the `docker` provider talks to: the one on DOCKER_HOST or /var/run/docker.sock,
or — where no engine runs, as on a fresh CI machine with only the docker.io package — one started
here for the caller.

A dockerd started here has no bridge and no iptables rules: desktops run with no network at all
(their server is reached through a bind-mounted Unix socket), so the engine needs none either. Its
log is var/docker/dockerd.log and its pid (with start time) var/docker/dockerd.json. A command that
needs an engine only for itself (`cuagym desktop image`) stops the one it started when it is done
(`engine()`); one started for rollouts keeps running, like a system service, until
`cuagym desktop stop-engine` (`stop_dockerd()`) ends it and the containerd it runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

from infra.errors import SandboxUnavailableError
from infra.server.daemon import Daemon, start_ticks
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


@contextlib.contextmanager
def engine() -> Iterator:
    """`docker_client()` for the length of a block: an engine started for it is stopped after it."""
    before = recorded_dockerd()
    client = docker_client()
    try:
        yield client
    finally:
        client.close()
        if before is None and recorded_dockerd() is not None:
            stop_dockerd()


def _state_file() -> Path:
    return get_settings().var_dir / "docker" / "dockerd.json"


def recorded_dockerd() -> Daemon | None:
    """The dockerd cuagym started on this machine, while it still runs."""
    try:
        daemon = Daemon.model_validate_json(_state_file().read_text())
    except FileNotFoundError:
        return None
    return daemon if daemon.running() else None


def stop_dockerd(timeout_s: float = 30.0) -> Daemon | None:
    """Stop the dockerd cuagym started (and the containerd it runs); None when there is none."""
    daemon = recorded_dockerd()
    if daemon is not None:
        # dockerd stops the containerd it manages on SIGINT; these are killed if it does not.
        children = [(pid, start_ticks(pid)) for pid in _children(daemon.pid)]
        daemon.stop(timeout_s)
        for pid, ticks in children:
            if ticks is not None and start_ticks(pid) == ticks:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    _state_file().unlink(missing_ok=True)
    return daemon


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _connect(docker):
    try:
        client = docker.from_env(timeout=120)
        client.ping()
    except docker.errors.DockerException:
        return None
    return client


def start_dockerd() -> Daemon:
    """Spawn dockerd in its own session (it outlives this process) and record it. Root only."""
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
    daemon = Daemon.spawn("dockerd", argv, env=env, cwd=Path("/"), log=var / "dockerd.log")
    _state_file().write_text(daemon.model_dump_json())
    return daemon
