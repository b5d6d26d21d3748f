"""One desktop's sandbox: the in-guest server (infra/desktop_server) and its session, behind the same
walls as the `local` provider's scripts (infra/sandbox.build_command via SandboxProcess).

What the sandbox adds to a `local` one, all read-only unless noted: the desktop venv at
/opt/cuagym/python (first on PATH, so `python3` has the guest libraries and pyautogui), the server
code, the env's scripts folder, /run/cuagym (writable: the server's Unix socket), and what X and
LibreOffice need from /etc (libreoffice, ld.so.cache, the font cache, a per-env machine-id). The
network namespace stays private: the server is reached only through its socket, from the host.

With a hub socket (a desktop with web apps), the sandbox also holds that socket (read-only, at
/run/cuagym-hub/hub.sock) and infra/hub_route.py, which runs as the server's parent for as long as
the desktop lives: it listens on the guest's 127.0.0.1:8400 and forwards each connection to the
socket — the hub is reachable from inside, nothing else is (the browser included).
"""

from __future__ import annotations

import json
import logging
import os
import resource
import secrets
import shutil
import uuid
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel

from infra import apps
from infra.app_seeds import GUEST_APP_SEEDS, installed_seeds
from infra.code_server import installed_root
from infra.envs.local import GUEST_HUB_PORT, HUB_ROUTE, HUB_ROUTE_SOURCE
from infra.errors import DesktopStartError, SandboxUnavailableError
from infra.sandbox import Bind, Limits
from infra.sandbox.process import SandboxProcess

log = logging.getLogger(__name__)

SERVER_PACKAGE = Path(__file__).resolve().parents[2] / "desktop_server"
GUEST_PYTHON = "/opt/cuagym/python"
GUEST_SERVER_ROOT = "/opt/cuagym/server"
GUEST_SCRIPTS = "/opt/cuagym/scripts"
GUEST_RUN_DIR = "/run/cuagym"
SOCKET_NAME = "desktop.sock"
GUEST_HUB_SOCKET = "/run/cuagym-hub/hub.sock"  # not under GUEST_RUN_DIR: that one is bound writable
GUEST_HUB_URL = f"http://127.0.0.1:{GUEST_HUB_PORT}"
GUEST_CODE_SERVER = "/opt/code-server"  # infra/desktop_server/code_editor.py runs it from here
REQUIRED_PROGRAMS = ("Xvfb", "openbox", "wmctrl", "xdotool", "dbus-daemon", "soffice")
_HOST_SHARED = ("/etc/libreoffice", "/etc/ld.so.cache", "/var/cache/fontconfig", "/etc/gtk-3.0")

# bwrap's --die-with-parent is PR_SET_PDEATHSIG, which fires when the *thread* that forked exits.
# Desktops outlive the threads that ask for them (Prefect workers, thread pools), so every sandbox is
# forked from this one thread, which lives as long as the process.
_LAUNCHER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuagym-desktop-launch")


def _default_limits() -> Limits:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    nofile = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)  # limits are only ever lowered
    return Limits(timeout_s=24 * 3600, memory_mb=4096, max_procs=1024, max_open_files=nofile)


@dataclass(frozen=True)
class DesktopConfig:
    """How a desktop looks and what it may use. `limits.memory_mb` caps the whole desktop (apps included)."""

    width: int = 1920
    height: int = 1080
    accessibility: bool = True
    start_timeout_s: float = 60.0
    limits: Limits = field(default_factory=_default_limits)


class DesktopMemory(BaseModel):
    """Memory of one desktop's processes. PSS splits shared pages (libraries, fonts) between the
    desktops that map them, so PSS summed over desktops is what they cost together."""

    pss_mb: float
    rss_mb: float
    processes: int
    cgroup_mb: float | None = None  # charged to the desktop's cgroup (includes page cache it faulted in)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def check_programs() -> None:
    missing = [p for p in REQUIRED_PROGRAMS if shutil.which(p) is None]
    if missing:
        raise SandboxUnavailableError(
            f"the desktop needs {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} not installed",
            hint="run `make setup` (infra/setup/system-deps.sh installs xvfb, openbox, libreoffice, xdotool, wmctrl)",
        )


def server_argv(config: DesktopConfig, *, with_hub: bool) -> list[str]:
    """The guest command of a desktop: the in-guest server (run from its bound or installed folder),
    behind the hub route when the desktop has web apps. The same in a sandbox and in a container."""
    boot = (
        f"import runpy, sys; sys.path.insert(0, {GUEST_SERVER_ROOT!r}); "
        "runpy.run_module('desktop_server', run_name='__main__', alter_sys=True)"
    )
    argv = [
        f"{GUEST_PYTHON}/bin/python3",
        "-c",
        boot,
        "--socket",
        f"{GUEST_RUN_DIR}/{SOCKET_NAME}",
        "--width",
        str(config.width),
        "--height",
        str(config.height),
        "--start-timeout",
        str(config.start_timeout_s),
    ]
    if not config.accessibility:
        argv.append("--no-accessibility")
    if with_hub:  # the forwarder is bound before the server starts, and ends with it
        route = [argv[0], HUB_ROUTE, "--uds", GUEST_HUB_SOCKET, "--port", str(GUEST_HUB_PORT), "--"]
        argv = route + argv
    return argv


def read_ready_line(line: bytes, *, hint: str) -> dict:
    """The in-guest server's ready line as a dict; DesktopStartError when it reports a failure."""
    info = json.loads(line or b"{}")
    if not info.get("ready"):
        raise DesktopStartError(f"the desktop failed to start: {info.get('error', line[:500])}", hint=hint)
    return info


def memory_of(pids: list[int], *, cgroup_mb: float | None) -> DesktopMemory:
    """PSS and RSS summed over `pids` (from /proc/<pid>/smaps_rollup; gone processes count nothing)."""
    pss = rss = counted = 0
    for pid in pids:
        fields = smaps_rollup(pid)
        if fields:
            pss, rss, counted = pss + fields.get("Pss", 0), rss + fields.get("Rss", 0), counted + 1
    return DesktopMemory(
        pss_mb=round(pss / 1024, 1), rss_mb=round(rss / 1024, 1), processes=counted, cgroup_mb=cgroup_mb
    )


class GuestSession(Protocol):
    """What a DesktopEnv asks of the thing that runs its desktop (a bubblewrap sandbox here, a
    container in infra/envs/docker): start it in two halves, reach its server's socket, stop it."""

    socket_path: Path

    def launch(self) -> None: ...

    def wait_ready(self) -> dict: ...

    def alive(self) -> bool: ...

    def pids(self) -> list[int]: ...

    def memory(self) -> DesktopMemory: ...

    def stop(self) -> None: ...


class DesktopSandbox:
    """One sandboxed desktop session. `launch()` forks it, `wait_ready()` hands it the token and waits
    for its ready line; `start()` does both. Launch several, then wait for each, to boot in parallel."""

    def __init__(
        self,
        *,
        home: Path,
        python: Path,
        scripts: Path,
        log_path: Path,
        config: DesktopConfig,
        token: str | None = None,
        hub_socket: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.home, self.python, self.scripts, self.log_path, self.config = (
            home,
            python,
            scripts,
            log_path,
            config,
        )
        self.token = token or new_token()
        # The hub's socket is bound as a file (never its folder, which holds the hub's data): a hub
        # restarted on the same path needs a fresh sandbox (a reset) to be reached again.
        self.hub_socket = hub_socket
        self.env = dict(env or {})  # extra variables every process of the desktop sees
        # The host end of the socket lives under a short /tmp path: Unix socket paths are capped at
        # 108 bytes, which a home under a long task id would exceed.
        self.run_dir = Path(os.path.realpath("/tmp")) / f"cuagym-desktop-{uuid.uuid4().hex[:12]}"
        self.socket_path = self.run_dir / SOCKET_NAME
        self.process: SandboxProcess | None = None
        self.ready_info: dict = {}

    def _binds(self) -> list[Bind]:
        machine_id = self.log_path.parent / "machine-id"  # D-Bus refuses to start without one
        if not machine_id.exists():
            machine_id.write_text(uuid.uuid4().hex + "\n")
        binds = [
            Bind(self.python, GUEST_PYTHON),
            Bind(SERVER_PACKAGE, f"{GUEST_SERVER_ROOT}/desktop_server"),
            Bind(self.scripts, GUEST_SCRIPTS),
            Bind(self.run_dir, GUEST_RUN_DIR, writable=True),
            Bind(machine_id, "/etc/machine-id"),
        ]
        binds += [Bind(Path(p), p) for p in (*_HOST_SHARED, *apps.host_paths()) if Path(p).exists()]
        if (code_server := installed_root()) is not None:  # real VS Code (infra/code_server.py), when set up
            binds.append(Bind(code_server, GUEST_CODE_SERVER))
        if (seeds := installed_seeds()) is not None:  # apps' first-start profiles (infra/app_seeds.py)
            binds.append(Bind(seeds, GUEST_APP_SEEDS))
        if self.hub_socket is not None:
            binds += [Bind(self.hub_socket, GUEST_HUB_SOCKET), Bind(HUB_ROUTE_SOURCE, HUB_ROUTE)]
        return binds

    def _argv(self) -> list[str]:
        return server_argv(self.config, with_hub=self.hub_socket is not None)

    def launch(self) -> None:
        """Fork the sandbox (from the launcher thread); returns at once. Raises SandboxStartError."""
        check_programs()
        self.run_dir.mkdir(mode=0o700)
        self.scripts.mkdir(parents=True, exist_ok=True)
        env = {**self.env, "PATH": f"{GUEST_PYTHON}/bin:/usr/local/bin:/usr/bin:/bin"}
        self.process = _LAUNCHER.submit(
            SandboxProcess,
            self._argv(),
            home=self.home,
            log_path=self.log_path,
            limits=self.config.limits,
            env=env,
            binds=self._binds(),
        ).result()

    def wait_ready(self) -> dict:
        """Send the token, wait for the server's ready line; raises DesktopStartError with its log tail."""
        assert self.process is not None, "launch() first"
        try:
            line = self.process.request(self.token.encode(), timeout_s=self.config.start_timeout_s + 15)
        except (TimeoutError, EOFError) as exc:
            tail = self.process.stderr_tail()
            self.stop()
            raise DesktopStartError(
                f"the desktop did not come up: {exc}; its log ends with:\n{tail}",
                hint=f"check that Xvfb and openbox run on this machine; log at {self.log_path}",
            ) from None
        try:
            self.ready_info = read_ready_line(
                line, hint=f"see {self.log_path}; `make setup` installs what a desktop needs"
            )
        except DesktopStartError:
            self.stop()
            raise
        return self.ready_info

    def start(self) -> dict:
        self.launch()
        return self.wait_ready()

    def alive(self) -> bool:
        return self.process is not None and self.process.proc.poll() is None

    def pids(self) -> list[int]:
        """Host pids of every process of the desktop (its cgroup's, else the sandbox's descendants)."""
        if self.process is None:
            return []
        caps = self.process.cmd.caps
        return _cgroup_pids(caps) if caps is not None else _descendants(self.process.proc.pid)

    def memory(self) -> DesktopMemory:
        """PSS/RSS summed over the desktop's processes (read from /proc), and its cgroup's charge."""
        assert self.process is not None
        return memory_of(self.pids(), cgroup_mb=_cgroup_usage_mb(self.process.cmd.caps))

    def stop(self) -> None:
        """End the session (closing stdin makes the server exit; stragglers are killed). Idempotent."""
        if self.process is not None:
            self.process.close()
            self.process = None
        shutil.rmtree(self.run_dir, ignore_errors=True)


def _cgroup_pids(caps) -> list[int]:
    try:
        return [int(p) for p in caps.procs_files[0].read_text().split()]
    except OSError:
        return []


def _cgroup_usage_mb(caps) -> float | None:
    if caps is None:
        return None
    for name in ("memory.usage_in_bytes", "memory.current"):
        try:
            return round(int((caps.memory_dir / name).read_text()) / (1024 * 1024), 1)
        except (OSError, ValueError):
            continue
    return None


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def smaps_rollup(pid: int) -> dict[str, int]:
    """kB fields of /proc/<pid>/smaps_rollup ({} for a process that is gone or unreadable)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return {}
    fields = {}
    for line in lines[1:]:
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[key] = int(parts[0])
    return fields


# Run in the guest after a window is up: the in-guest server's own paint-settling rule (settle.py).
# argv: the seconds to wait at most, then optionally the patience and a frame SAVE_FRAME saved
# before the app started (a path; "" for none).
SETTLE = (
    f"import sys, time; sys.path.insert(0, {GUEST_SERVER_ROOT!r}); import mss; "
    "from desktop_server.settle import PATIENCE_S, load_frame, wait_until_painted; "
    "patience = float(sys.argv[2]) if sys.argv[2:3] and sys.argv[2] else PATIENCE_S; "
    "before = load_frame(sys.argv[3]) if sys.argv[3:4] and sys.argv[3] else None; "
    "sys.exit(0 if wait_until_painted(mss.MSS(display=':0'), time.monotonic() + float(sys.argv[1]), patience, before) else 1)"
)
# Run in the guest before an app starts: the screen as it was, for SETTLE's last argument.
SAVE_FRAME = (
    f"import sys; sys.path.insert(0, {GUEST_SERVER_ROOT!r}); import mss; "
    "from desktop_server.settle import save_frame; save_frame(mss.MSS(display=':0'), sys.argv[1])"
)
GUEST_FRAME_BEFORE = "/tmp/cuagym-frame-before.ppm"
