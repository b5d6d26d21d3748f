"""One desktop as a container: the image's in-guest server as the container's command, speaking the
same stdin/stdout protocol as in a sandbox (token in, one ready line out, EOF ends the session),
here over the engine's attach stream.

The walls: no network (`network_mode="none"`: the server's Unix socket comes out through a
bind-mounted folder, and a desktop with web apps gets the hub's socket bound in, as in a sandbox), a
read-only root file system with tmpfs for /tmp and /run/user, every capability dropped,
no-new-privileges, the guest user (uid 1000, not root), and the memory, pids and open-files limits of
the desktop's `Limits` as the container's cgroup limits. A fresh container each start: a reset
throws the old one away with everything it changed outside the home.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import time
import uuid
from collections.abc import Mapping
from pathlib import Path

from infra.app_seeds import GUEST_APP_SEEDS, installed_seeds
from infra.code_server import installed_root
from infra.envs.desktop.sandbox import (
    GUEST_CODE_SERVER,
    GUEST_HUB_SOCKET,
    GUEST_RUN_DIR,
    GUEST_SCRIPTS,
    SOCKET_NAME,
    DesktopConfig,
    DesktopMemory,
    memory_of,
    new_token,
    read_ready_line,
    server_argv,
)
from infra.errors import DesktopStartError
from infra.sandbox import GUEST_HOME, GUEST_UID
from infra.server.daemon import start_ticks

log = logging.getLogger(__name__)

_STOP_GRACE_S = 10.0
DESKTOP_LABEL = "org.cuagym.desktop"
# Which process owns a container: a sandbox dies with its parent, a container does not, so a killed
# run's containers are found by this label and removed by the next provider on the machine.
OWNER_LABEL = "org.cuagym.owner"
_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
_FRAME_HEADER = 8  # the engine's multiplexed stream: 1 byte stream id, 3 zero bytes, 4 bytes length


def chown_tree(root: Path, uid: int = GUEST_UID) -> None:
    """Give the guest user what the host wrote for it (in a sandbox the user namespace maps host root
    to the guest user; a container has no such mapping)."""
    os.chown(root, uid, uid, follow_symlinks=False)
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            os.chown(os.path.join(base, name), uid, uid, follow_symlinks=False)


class ContainerSession:
    """One desktop container. `launch()` creates and starts it, `wait_ready()` hands it the token and
    waits for the ready line (launch several, then wait for each, to boot in parallel)."""

    def __init__(
        self,
        *,
        client,
        image: str,
        home: Path,
        scripts: Path,
        log_path: Path,
        config: DesktopConfig,
        token: str | None = None,
        hub_socket: Path | None = None,
        env: Mapping[str, str] | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> None:
        self.client, self.image = client, image
        self.home, self.scripts, self.log_path, self.config = home, scripts, log_path, config
        self.token = token or new_token()
        self.hub_socket = hub_socket
        self.env = dict(env or {})
        self.labels = {DESKTOP_LABEL: "1", **(labels or {})}
        # A short /tmp path, as in a sandbox: Unix socket paths are capped at 108 bytes.
        self.run_dir = Path(os.path.realpath("/tmp")) / f"cuagym-docker-{uuid.uuid4().hex[:12]}"
        self.socket_path = self.run_dir / SOCKET_NAME
        self.container = None
        self._attach = None
        self.ready_info: dict = {}

    def _mounts(self) -> list:
        from docker.types import Mount

        machine_id = self.log_path.parent / "machine-id"  # D-Bus refuses to start without one
        if not machine_id.exists():
            machine_id.write_text(uuid.uuid4().hex + "\n")
        mounts = [
            Mount(GUEST_HOME, str(self.home), type="bind"),
            Mount(GUEST_SCRIPTS, str(self.scripts), type="bind", read_only=True),
            Mount(GUEST_RUN_DIR, str(self.run_dir), type="bind"),
            Mount("/etc/machine-id", str(machine_id), type="bind", read_only=True),
        ]
        if self.hub_socket is not None:
            mounts.append(Mount(GUEST_HUB_SOCKET, str(self.hub_socket), type="bind", read_only=True))
        if (code_server := installed_root()) is not None:  # real VS Code, as the sandboxes bind it
            mounts.append(Mount(GUEST_CODE_SERVER, str(code_server), type="bind", read_only=True))
        if (seeds := installed_seeds()) is not None:
            mounts.append(Mount(GUEST_APP_SEEDS, str(seeds), type="bind", read_only=True))
        return mounts

    def launch(self) -> None:
        """Create and start the container; returns once it runs (the server boots X meanwhile)."""
        from docker.types import Ulimit

        limits = self.config.limits
        self.run_dir.mkdir(mode=0o700)
        self.scripts.mkdir(parents=True, exist_ok=True)
        for path in (self.run_dir, self.home):
            chown_tree(path)
        argv = server_argv(self.config, with_hub=self.hub_socket is not None)
        api = self.client.api  # the low-level API: only it sets StdinOnce (with stdin_open, not detached)
        host_config = api.create_host_config(
            network_mode="none",
            mounts=self._mounts(),
            mem_limit=f"{limits.memory_mb}m",
            memswap_limit=f"{limits.memory_mb}m",
            pids_limit=limits.max_procs,
            ulimits=[Ulimit(name="nofile", soft=limits.max_open_files, hard=limits.max_open_files)],
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            read_only=True,
            tmpfs={
                "/tmp": f"size={limits.max_tmp_mb}m",
                "/run/user": f"mode=0700,uid={GUEST_UID},gid={GUEST_UID}",
            },
            shm_size="256m",  # Chromium's renderers share memory through /dev/shm
            init=True,  # tini as pid 1 reaps what the apps leave behind
        )
        created = api.create_container(
            self.image,
            command=argv,
            stdin_open=True,  # and StdinOnce: the attached client's hang-up is the server's EOF
            environment=self.env,
            hostname="cuagym-guest",
            labels=self.labels,
            network_disabled=True,
            host_config=host_config,
        )
        self.container = self.client.containers.get(created["Id"])
        try:
            self._attach = self.container.attach_socket(params={"stdin": 1, "stdout": 1, "stream": 1})
            self.container.start()
        except BaseException:
            self.stop()
            raise

    def wait_ready(self) -> dict:
        """Send the token, wait for the server's ready line; raises DesktopStartError with its log."""
        assert self.container is not None and self._attach is not None, "launch() first"
        sock: socket.socket = self._attach._sock
        try:
            sock.sendall(self.token.encode() + b"\n")
            line = _read_line(sock, time.monotonic() + self.config.start_timeout_s + 15)
        except (TimeoutError, EOFError, OSError) as exc:
            tail = self._stderr_tail()
            self.stop()
            raise DesktopStartError(
                f"the desktop container did not come up: {exc}; its log ends with:\n{tail}",
                hint=f"check the image (`cuagym desktop image`); log at {self.log_path}",
            ) from None
        try:
            self.ready_info = read_ready_line(line, hint=f"see {self.log_path}")
        except DesktopStartError:
            self.stop()
            raise
        return self.ready_info

    def start(self) -> dict:
        self.launch()
        return self.wait_ready()

    def alive(self) -> bool:
        if self.container is None:
            return False
        with contextlib.suppress(Exception):
            self.container.reload()
            return self.container.status == "running"
        return False

    def pids(self) -> list[int]:
        """Host pids of the container's processes (tini, X, the apps, the server)."""
        if self.container is None:
            return []
        listing = self.container.top()
        column = listing["Titles"].index("PID")
        return [int(row[column]) for row in listing["Processes"]]

    def memory(self) -> DesktopMemory:
        """PSS/RSS summed over the container's processes (as for a sandbox) and its cgroup's charge."""
        return memory_of(self.pids(), cgroup_mb=self._cgroup_mb())

    def _cgroup_mb(self) -> float | None:
        assert self.container is not None
        for path in (
            Path(f"/sys/fs/cgroup/memory/docker/{self.container.id}/memory.usage_in_bytes"),  # v1, cgroupfs
            Path(
                f"/sys/fs/cgroup/system.slice/docker-{self.container.id}.scope/memory.current"
            ),  # v2, systemd
            Path(f"/sys/fs/cgroup/docker/{self.container.id}/memory.current"),  # v2, cgroupfs
        ):
            with contextlib.suppress(OSError, ValueError):
                return round(int(path.read_text()) / (1024 * 1024), 1)
        return None

    def _stderr_tail(self, lines: int = 30) -> str:
        if self.container is None:
            return ""
        with contextlib.suppress(Exception):
            text = self.container.logs(stdout=False, stderr=True).decode(errors="replace")
            return "\n".join(text.splitlines()[-lines:])
        return ""

    def stop(self) -> None:
        """End the session (hanging up stdin makes the server exit), keep its log, remove the
        container. Idempotent."""
        if self._attach is not None:
            with contextlib.suppress(OSError):
                self._attach._sock.shutdown(socket.SHUT_WR)
                self._attach._sock.close()
            self._attach.close()
            self._attach = None
        if self.container is not None:
            import docker
            import requests

            # A server that hangs on the way out is killed with the container below.
            with contextlib.suppress(docker.errors.DockerException, requests.RequestException):
                self.container.wait(timeout=_STOP_GRACE_S)
            with contextlib.suppress(docker.errors.DockerException), self.log_path.open("ab") as out:
                out.write(self.container.logs(stdout=False, stderr=True))
            with contextlib.suppress(docker.errors.NotFound):
                self.container.remove(force=True)
            self.container = None
        shutil.rmtree(self.run_dir, ignore_errors=True)


def owner_label(pid: int | None = None) -> str:
    """`boot id:pid:start ticks` of a process: unique to it on this machine, even after pid reuse."""
    pid = os.getpid() if pid is None else pid
    return f"{_BOOT_ID.read_text().strip()}:{pid}:{start_ticks(pid)}"


def sweep_orphans(client) -> list[str]:
    """Remove the desktop containers whose owning process is gone (killed mid-run); their ids."""
    removed = []
    for container in client.containers.list(all=True, filters={"label": DESKTOP_LABEL}):
        owner = container.labels.get(OWNER_LABEL, "")
        boot, _, rest = owner.partition(":")
        pid = rest.partition(":")[0]
        alive = boot == _BOOT_ID.read_text().strip() and pid.isdigit() and owner_label(int(pid)) == owner
        if not alive:
            with contextlib.suppress(Exception):
                container.remove(force=True)
                removed.append(container.id)
    if removed:
        log.warning("removed %d desktop containers left by runs that were killed", len(removed))
    return removed


def _read_line(sock: socket.socket, deadline: float) -> bytes:
    """The first stdout line of an attach stream (frames: 8-byte header, then payload)."""
    buffered = b""
    while b"\n" not in buffered:
        header = _recv_exact(sock, _FRAME_HEADER, deadline)
        payload = _recv_exact(sock, int.from_bytes(header[4:], "big"), deadline)
        if header[0] == 1:  # stdout; stderr is not attached
            buffered += payload
    return buffered.split(b"\n", 1)[0]


def _recv_exact(sock: socket.socket, size: int, deadline: float) -> bytes:
    data = b""
    while len(data) < size:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no ready line in time")
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(size - len(data))
        except TimeoutError:
            raise TimeoutError("no ready line in time") from None
        if not chunk:
            raise EOFError("the container's server exited before it was ready")
        data += chunk
    return data
