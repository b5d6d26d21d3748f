"""One desktop env (see the package's docstring): its sandbox's lifetime, reset from snapshots, the
state view, GUI input and screenshots, opening a task's documents and terminal."""

from __future__ import annotations

import contextlib
import logging
import shutil
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from infra.envs.base import Capability, EnvRole, ScriptResult, Snapshot, StateView
from infra.envs.desktop.actions import GuiAction, xdotool_args
from infra.envs.desktop.client import DesktopClient, ServerEnv
from infra.envs.desktop.forward import TcpForwarder
from infra.envs.desktop.programs import DesktopPrograms
from infra.envs.desktop.sandbox import (
    GUEST_SCRIPTS,
    SETTLE,
    DesktopConfig,
    DesktopMemory,
    GuestSession,
    new_token,
)
from infra.envs.desktop.setup import (
    TERMINAL_COMMAND,
    TERMINAL_PATIENCE_S,
    TERMINAL_TITLE,
    LaunchStep,
    load_task,
    run_setup,
    task_documents,
    task_terminal,
)
from infra.envs.desktop.web_apps import DesktopWebApps
from infra.envs.home import (
    MAX_STATE_ENTRIES,
    copy_home,
    read_home_file,
    staged_script,
    walk_state,
)
from infra.envs.local import HubRoute
from infra.errors import DesktopError
from infra.sandbox import Limits, prepare_home

log = logging.getLogger(__name__)

# What the desktop's applications write for themselves (profiles, recent-file lists, caches), never
# what a task asks for: left out of what a judge is shown as the state's changes.
APP_HOUSEKEEPING = (".config/libreoffice/", ".local/share/", ".cache/")
OSWORLD_USER = "cuagym"  # any name works: the server checks only the password (the token)


class DesktopHost(Protocol):
    """What a desktop needs of whoever provisioned it (DesktopProvider, DockerProvider): declared here
    so that the env does not import its provider, which imports the env."""

    config: DesktopConfig
    script_limits: Limits
    hub: HubRoute | None
    keep: bool

    def new_sandbox(self, env: DesktopEnv) -> GuestSession: ...

    def has_program(self, name: str) -> bool: ...


class DesktopEnv(DesktopWebApps, DesktopPrograms, ServerEnv):
    kind, not_running_hint = "desktop", "start() or reset() it"
    capabilities = frozenset(
        {
            Capability.RUN_SCRIPT,
            Capability.STATE_VIEW,
            Capability.SNAPSHOT,
            Capability.SCREENSHOT,
            Capability.GUI_INPUT,
        }
    )

    def __init__(
        self,
        provider: DesktopHost,
        env_id: str,
        task_id: str,
        role: EnvRole,
        root: Path,
        web_apps: Sequence[str] = (),
    ) -> None:
        super().__init__(provider, env_id, task_id, role, root)
        self.home, self.scripts = root / "home", root / "scripts"
        self.log_path = root / "desktop.log"
        self.scripts.mkdir(parents=True, exist_ok=True)
        prepare_home(self.home)
        self.token = new_token()
        self.apps: tuple[str, ...] = ()
        self.documents: list[str] = []  # opened by setup_from_config; reset() reopens them
        self.terminal = False  # setup_from_config opened a terminal; reset(reopen=True) opens it again
        self.web_apps = tuple(web_apps)
        # One hub session per env (initial and golden envs never share web state), named at random:
        # scripts read it from CUAGYM_SID, so it must not say which env it belongs to. It survives resets.
        self.sid: str | None = uuid.uuid4().hex if self.web_apps else None
        self.web_pages: list[str] = []  # web apps shown in the browser; reset(reopen=True) shows them again
        self.programs: list[tuple[str, ...]] = []
        self._grading = None
        self._frame_before = ""
        self._web_states: dict[str, dict[str, dict] | None] = {}  # snapshot ref -> hub state recorded with it
        self._sandbox: GuestSession | None = None
        self._forwarder: TcpForwarder | None = None

    # --- lifecycle --------------------------------------------------------------------------------

    def launch(self) -> None:
        """Fork the desktop's sandbox; `wait_ready()` completes the start (see DesktopSandbox)."""
        self._check_open()
        if self._sandbox is not None:
            raise DesktopError(
                f"desktop {self.id} is already running", hint="reset() it, or close() it first"
            )
        self._sandbox = self.provider.new_sandbox(self)
        self._sandbox.launch()

    def wait_ready(self) -> None:
        assert self._sandbox is not None, "launch() first"
        try:
            self._sandbox.wait_ready()
        except BaseException:
            self._sandbox = None
            raise
        self._client = DesktopClient(self._sandbox.socket_path, self.token)
        if self._forwarder is not None:
            self._forwarder.unix_path = self._sandbox.socket_path

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def _stop(self) -> None:
        super()._release()  # the client of the server about to stop
        if self._sandbox is not None:
            self._sandbox.stop()
            self._sandbox = None

    def reset(self, snapshot: Snapshot | None = None, *, reopen: bool = False) -> float:
        """A fresh desktop over the initial state (or `snapshot`), its hub session put back to the state
        recorded with it; with `reopen`, the web apps and documents the task's setup opened are opened
        again (the state an agent starts from). Returns seconds taken."""
        self._check_open()
        started = time.monotonic()
        self._stop()
        target = snapshot or self._initial
        if target is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            copy_home(Path(target.ref), self.home)
            if target.ref in self._web_states:
                self._restore_web_state(self._web_states[target.ref])
        self.start()
        if reopen:  # in the order the setup opened them: the documents last, on top
            self.relaunch_programs()
        if reopen and self.terminal:
            self.open_terminal()
        for app in self.web_pages if reopen else []:
            self.open_web_app(app)
        for document in self.documents if reopen else []:
            self.open_document(document)
        return time.monotonic() - started

    @property
    def running(self) -> bool:
        return self._sandbox is not None and self._sandbox.alive()

    # --- reaching the in-guest server -------------------------------------------------------------

    def serve_tcp(self, *, host: str = "127.0.0.1", port: int = 0) -> str:
        """Open (once) a loopback TCP port leading to the server; returns its URL (without the token)."""
        if self._forwarder is None:
            self._forwarder = TcpForwarder(self.client.socket_path, host=host, port=port)
        return self._forwarder.url

    def osworld_address(self) -> tuple[str, int]:
        """(vm_ip, server_port) for OSWorld's PythonController / SetupController, token included."""
        self.serve_tcp()
        assert self._forwarder is not None
        return f"{OSWORLD_USER}:{self.token}@{self._forwarder.host}", self._forwarder.port

    # --- Env interface ----------------------------------------------------------------------------

    def run_script(
        self, source: str, *, name: str, limits: Limits | None = None, env: Mapping[str, str] | None = None
    ) -> ScriptResult:
        """Run `python3 <name>` inside the desktop (its display, its apps), like an OSWorld `execute`.
        Only `limits.timeout_s` applies per script; memory is capped for the whole desktop."""
        timeout_s = (limits or self.provider.script_limits).timeout_s
        # Each script alone in a fresh folder under the bound scripts dir, removed after its run.
        with staged_script(self.scripts, name, source) as folder:
            argv = ["python3", f"{GUEST_SCRIPTS}/{folder.name}/{name}"]
            return self.client.run_script(argv, timeout_s=timeout_s, env=env)

    def state_view(self) -> StateView:
        self._check_open()
        files, truncated = walk_state(self.home)
        if truncated:
            log.warning("state view of %s truncated at %d entries", self.id, MAX_STATE_ENTRIES)
        app_state = None
        if self.web_apps:  # each web app's {initial_state, current_state, state_diff}, as `local` gives
            with self._hub() as hub:
                app_state = {app: self._hub_get(hub, app, "go") for app in self.web_apps}
        return StateView(env_id=self.id, role=self.role, files=files, app_state=app_state)

    def read_file(self, path: str, *, max_bytes: int = 16 * 1024 * 1024) -> bytes:
        self._check_open()
        return read_home_file(self.home, path, max_bytes=max_bytes)

    def snapshot(self) -> Snapshot:
        self._check_open()
        self._snapshots += 1
        target = self.root / "snapshots" / str(self._snapshots)
        copy_home(self.home, target)
        if self.web_apps:
            self._web_states[str(target)] = self._web_state()
        return Snapshot(env_id=self.id, ref=str(target))

    def restore(self, snapshot: Snapshot) -> None:
        """Restore = a fresh desktop over the snapshot (open apps would hold the old files)."""
        self.reset(snapshot)

    def screenshot(self) -> bytes:
        """The screen as PNG bytes, cursor included."""
        return self.client.screenshot()

    def screen_size(self) -> tuple[int, int]:
        return self.provider.config.width, self.provider.config.height

    def cursor_position(self) -> tuple[int, int]:
        """Where the X server has the pointer now."""
        return self.client.cursor_position()

    def gui_input(self, action: GuiAction, *, at: tuple[int, int] | None = None) -> None:
        """Perform one mouse or keyboard action (xdotool in the guest); DesktopError if it failed or
        points off screen (xdotool itself would silently clamp it to the edge). `at`: where the
        pointer is, when the caller just read it (else it is read here for a pointer action)."""
        width, height = self.provider.config.width, self.provider.config.height
        x, y = getattr(action, "x", None), getattr(action, "y", None)
        if (x is not None and x >= width) or (y is not None and y >= height):
            raise DesktopError(
                f"{action!r} is off the {width}x{height} screen",
                hint="coordinates are screen pixels, 0-based",
            )
        if at is None and x is not None:  # see actions._move
            at = self.cursor_position()
        result = self.client.execute(["xdotool", *xdotool_args(action, at=at)], timeout_s=60)
        if result.returncode != 0:
            raise DesktopError(
                f"{action!r} failed: {(result.error or result.output).strip()[-500:]}",
                hint="check coordinates are on screen and key names are valid",
            )

    def window_titles(self) -> list[str]:
        """Titles of the windows on screen (what `wmctrl -l` lists), dialogs included."""
        listing = self.client.execute(["wmctrl", "-l"], timeout_s=30).output
        return [
            line.split(None, 3)[3] if len(line.split(None, 3)) == 4 else "" for line in listing.splitlines()
        ]

    def wait_for_window(self, title_part: str, *, timeout_s: float = 60.0, gone: bool = False) -> str:
        """Wait until a window whose title contains `title_part` is up (or, with gone=True, none is);
        returns the matching title ("" when gone). DesktopError on timeout."""
        deadline = time.monotonic() + timeout_s
        while True:
            matches = [t for t in self.window_titles() if title_part in t]
            if matches and not gone:
                return matches[0]
            if gone and not matches:
                return ""
            if time.monotonic() > deadline:
                raise DesktopError(
                    f"no window titled *{title_part}* {'left' if gone else 'came up'} in {timeout_s:g} s; "
                    f"on screen: {self.window_titles()}",
                    hint="take a screenshot to see what the app shows",
                )
            time.sleep(0.2)

    def open_file(self, guest_path: str, *, timeout_s: float = 120.0) -> None:
        """Open a guest file in its app; returns once the app's window is up and active."""
        self.client.open_file(guest_path, timeout_s=timeout_s)

    def open_terminal(self, *, timeout_s: float = 60.0) -> str:
        """Show a terminal (xterm running bash at the home, maximised and focused); returns once it
        has painted, with its window title. What a files or VS Code task starts from here."""
        if not self.provider.has_program(TERMINAL_COMMAND[0]):
            raise DesktopError(
                "xterm is not installed, so the desktop cannot show a terminal",
                hint="run `make setup` (infra/setup/apt-packages.txt lists xterm)",
            )
        self.client.launch(list(TERMINAL_COMMAND))
        title = self.wait_for_window(TERMINAL_TITLE, timeout_s=timeout_s)
        with contextlib.suppress(DesktopError):
            self.client.activate_window(title, strict=True)
        # xterm paints as soon as it is mapped: a still screen is a painted one after half a second
        self.client.execute(["python3", "-c", SETTLE, "20", str(TERMINAL_PATIENCE_S)], timeout_s=60)
        return title

    def setup_from_config(
        self, config_path: Path, *, open_documents: bool = True, timeout_s: float = 300.0
    ) -> list[str]:
        """Run a vanilla OSWorld config.json's setup steps (paths relative to its folder) and wait for
        the windows of the program apps they launched (Chromium, Thunderbird, …), open a terminal
        for a task worked from one (files), then show the task's web apps in the browser (when its
        related apps are web apps) and open its documents in their apps, the documents last (on top);
        returns the URLs, then the guest paths, opened. The config's evaluator postconfig is kept for
        `prepare_grading`."""
        task = load_task(config_path)
        pages = self._task_web_apps(task) if open_documents else []  # checked before setup runs
        launches = any(isinstance(step, LaunchStep) for step in task.config)
        self._frame_before = self.save_frame_before() if launches else ""
        run_setup(self.client, task, config_path.parent, step_timeout_s=timeout_s)
        self._grading = (task, config_path.parent)
        self.programs = self._await_programs(task, timeout_s)
        # a task worked (also) from a terminal gets one: alone for a files task, beside the other
        # apps of a cross-app one (a desktop here has no panel to start one from)
        self.terminal = open_documents and task_terminal(task.related_apps)
        if self.terminal:
            self.open_terminal(timeout_s=timeout_s)
        documents = task_documents(self.home, task.related_apps) if open_documents else []
        for app in pages:
            self.open_web_app(app, timeout_s=timeout_s)
        for document in documents:
            self.open_document(document, timeout_s=timeout_s)
        self.web_pages, self.documents = pages, documents
        return [*(self.web_app_url(app) for app in pages), *documents]

    def pids(self) -> list[int]:
        """Host pids of the desktop's processes (X server, window manager, apps, the server)."""
        return self._sandbox.pids() if self._sandbox is not None else []

    def memory(self) -> DesktopMemory:
        if self._sandbox is None:
            raise DesktopError(f"desktop {self.id} is not running", hint="start() it first")
        return self._sandbox.memory()

    def _release(self) -> None:
        self._stop()
        if self._forwarder is not None:
            self._forwarder.close()
            self._forwarder = None
