"""The `desktop` env provider: a real X desktop (Xvfb, openbox, LibreOffice) per env, in the same
bubblewrap sandbox as `local`, driven through an OSWorld-compatible in-guest server.

An env is a directory `<root>/<task>/<env_id>/` holding `home/` (mounted at /home/user), `scripts/`
(read-only at /opt/cuagym/scripts, outside the state view), `desktop.log` (the sandbox's stderr) and
`snapshots/`. The desktop itself is one sandbox (infra/envs/desktop/sandbox.py) whose server listens
on a Unix socket; the host reaches it with `env.client` (typed calls over that socket), or — for
OSWorld's own controllers — over a loopback TCP port that `env.serve_tcp()` opens, with the token as
HTTP Basic password (`env.osworld_address()` gives the vm_ip/port pair to hand them).

Reset never boots a VM: it ends the sandbox, restores the home from the env's initial snapshot (the
state at provision, or what `mark_initial()` recorded after a task's setup) and starts a fresh one.
The token and the TCP port survive resets, so a controller holding them keeps working.

Web apps: a desktop provisioned with `apps` that include hub apps (chat, tracker, store, mail), from a
provider given `hub=HubRoute(...)`, gets its own random hub session (`env.sid`) and, for as long as it
lives, the forwarder from the guest's 127.0.0.1:8400 to the hub's socket (the sandbox's network stays
otherwise empty). Every process of the desktop sees `CUAGYM_HUB_URL` and `CUAGYM_SID`, so a web
task's scripts — and OSWorld's `execute` steps running them — work unchanged, as in `local`.
`open_web_app(app)` shows an app full-screen in Chromium (infra/envs/desktop/browser.py);
`setup_from_config` does so for a bundle whose related apps are web apps. Each snapshot (the initial
one included) records the session's hub state next to the home, and a reset puts it back.

Example:
    >>> provider = DesktopProvider(Path("var/desktops"), Path("var/desktop-venv"))
    >>> with provider.provision("t1", EnvRole.ROLLOUT) as env:
    ...     env.setup_from_config(Path("output/final/t1/config.json"))   # upload + execute, open the file
    ...     env.gui_input(KeyPress(keys=["ctrl", "s"]))
    ...     png = env.screenshot()
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from infra.apps import BROWSER_OSWORLD_NAME
from infra.desktop_venv import require_desktop_python
from infra.envs.base import Capability, Env, EnvProvider, EnvRole, ScriptResult, Snapshot, StateView
from infra.envs.desktop.actions import GuiAction, xdotool_args
from infra.envs.desktop.browser import chromium_command, chromium_installed, rendered_title
from infra.envs.desktop.client import DesktopClient
from infra.envs.desktop.forward import TcpForwarder
from infra.envs.desktop.sandbox import (
    GUEST_HUB_URL,
    GUEST_SCRIPTS,
    GUEST_SERVER_ROOT,
    DesktopConfig,
    DesktopMemory,
    DesktopSandbox,
    GuestSession,
    check_programs,
    new_token,
)
from infra.envs.desktop.setup import (
    TERMINAL_COMMAND,
    TERMINAL_TITLE,
    DesktopSetupError,
    OsworldTask,
    load_task,
    run_setup,
    task_documents,
    task_terminal,
)
from infra.envs.home import (
    MAX_STATE_ENTRIES,
    copy_home,
    dir_safe,
    new_env_id,
    read_home_file,
    staged_script,
    walk_state,
)
from infra.envs.local import WEB_APPS, HubRoute
from infra.errors import DesktopError, EnvError
from infra.sandbox import Limits, prepare_home

log = logging.getLogger(__name__)

# What the desktop's applications write for themselves (profiles, recent-file lists, caches), never
# what a task asks for: left out of what a judge is shown as the state's changes.
APP_HOUSEKEEPING = (".config/libreoffice/", ".local/share/", ".cache/")
OSWORLD_USER = "cuagym"  # any name works: the server checks only the password (the token)
BROWSER_APP = BROWSER_OSWORLD_NAME  # what a bundle's config.json names its web apps in related_apps
# Run in the guest after a window is up: the in-guest server's own paint-settling rule (settle.py).
_SETTLE = (
    f"import sys, time; sys.path.insert(0, {GUEST_SERVER_ROOT!r}); import mss; "
    "from desktop_server.settle import wait_until_painted; "
    "sys.exit(0 if wait_until_painted(mss.MSS(display=':0'), time.monotonic() + float(sys.argv[1])) else 1)"
)


class DesktopEnv(Env):
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
        provider: DesktopProvider,
        env_id: str,
        task_id: str,
        role: EnvRole,
        root: Path,
        web_apps: Sequence[str] = (),
    ) -> None:
        super().__init__(env_id, task_id, role)
        self.provider = provider
        self.root, self.home, self.scripts = root, root / "home", root / "scripts"
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
        self._web_states: dict[str, dict[str, dict] | None] = {}  # snapshot ref -> hub state recorded with it
        self._snapshots = 0
        self._initial: Snapshot | None = None
        self._sandbox: GuestSession | None = None
        self._client: DesktopClient | None = None
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
        if self._client is not None:
            self._client.close()
            self._client = None
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
        for app in self.web_pages if reopen else []:
            self.open_web_app(app)
        for document in self.documents if reopen else []:
            self.open_file(document)
        if reopen and self.terminal:
            self.open_terminal()
        return time.monotonic() - started

    def mark_initial(self) -> Snapshot:
        """Record the current home as the state `reset()` returns to (call after a task's setup)."""
        self._initial = self.snapshot()
        return self._initial

    @property
    def client(self) -> DesktopClient:
        self._check_open()
        if self._client is None:
            raise DesktopError(f"desktop {self.id} is not running", hint="start() or reset() it")
        return self._client

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
        self.client.execute(["python3", "-c", _SETTLE, "20"], timeout_s=60)
        return title

    def setup_from_config(
        self, config_path: Path, *, open_documents: bool = True, timeout_s: float = 300.0
    ) -> list[str]:
        """Run a vanilla OSWorld config.json's setup steps (paths relative to its folder), then show
        the task's web apps in the browser (when its related apps are web apps) and open its documents
        in their apps, the documents last (on top) — or, for a task worked from a terminal (files, VS
        Code) with neither, a terminal; returns the URLs, then the guest paths, opened."""
        task = load_task(config_path)
        pages = self._task_web_apps(task) if open_documents else []  # checked before setup runs
        run_setup(self.client, task, config_path.parent, step_timeout_s=timeout_s)
        documents = task_documents(self.home, task.related_apps) if open_documents else []
        for app in pages:
            self.open_web_app(app, timeout_s=timeout_s)
        for document in documents:
            self.open_file(document, timeout_s=timeout_s)
        self.web_pages, self.documents = pages, documents
        self.terminal = open_documents and not (pages or documents) and task_terminal(task.related_apps)
        if self.terminal:  # a files or VS Code task: nothing to open, but the agent needs a window
            self.open_terminal(timeout_s=timeout_s)
        return [*(self.web_app_url(app) for app in pages), *documents]

    def _task_web_apps(self, task: OsworldTask) -> list[str]:
        if BROWSER_APP not in task.related_apps:
            return []
        if not self.web_apps:
            raise DesktopSetupError(
                f"task {task.id} runs in the browser on a hub session, and desktop {self.id} has none",
                hint="provision it with the task's apps (provision(..., apps=spec.apps)) from a "
                "DesktopProvider(hub=HubRoute(...))",
            )
        return list(self.web_apps)

    # --- web apps -----------------------------------------------------------------------------------

    def hub_env(self) -> dict[str, str]:
        """What a web task's scripts read to reach the hub (empty for a desktop without web apps)."""
        if not self.web_apps:
            return {}
        assert self.sid is not None
        return {"CUAGYM_HUB_URL": GUEST_HUB_URL, "CUAGYM_SID": self.sid}

    def hub_socket(self) -> Path | None:
        """The hub's socket pinned to this desktop's session, for a desktop with web apps (the
        guest's 127.0.0.1:8400 leads there; no other session is reachable through it)."""
        if not self.web_apps or self.provider.hub is None:
            return None
        assert self.sid is not None
        return self.provider.hub.pinned_socket(self.sid)

    def web_app_url(self, app: str) -> str:
        """The guest URL of one of this desktop's web apps, on its own hub session."""
        if app not in self.web_apps:
            raise DesktopError(
                f"{app!r} is not a web app of desktop {self.id} (it has {list(self.web_apps) or 'none'})",
                hint="provision the desktop with the app in `apps`, from a DesktopProvider(hub=...)",
            )
        return f"{GUEST_HUB_URL}/{app}/?sid={self.sid}"

    def open_web_app(self, app: str, *, timeout_s: float = 60.0) -> str:
        """Show `app` full-screen in Chromium (kiosk: no address bar, tabs or infobars) on this
        desktop's hub session; returns once the app has rendered its state and the screen has
        settled, with the browser window's title ("… - Team Chat - Chromium")."""
        url = self.web_app_url(app)
        if not self.provider.has_program("chromium"):
            raise DesktopError(
                "Chromium is not installed, so the desktop cannot show web apps",
                hint="run `make setup` (infra/setup/apt-packages.txt lists chromium)",
            )
        self.client.launch(chromium_command(url, accessibility=self.provider.config.accessibility))
        deadline = time.monotonic() + timeout_s
        while (title := rendered_title(self.window_titles(), app)) is None:
            if time.monotonic() > deadline:
                raise DesktopError(
                    f"{app} did not render in Chromium within {timeout_s:g} s; on screen: {self.window_titles()}",
                    hint=f"check that the hub serves {app} (GET /{app}/ on its socket); see {self.log_path}",
                )
            time.sleep(0.2)
        with contextlib.suppress(DesktopError):  # the app may have retitled it meanwhile (it has the focus)
            self.client.activate_window(title, strict=True)
        self.client.execute(["python3", "-c", _SETTLE, "20"], timeout_s=60)
        if app not in self.web_pages:
            self.web_pages.append(app)
        return title

    def _hub(self):
        hub = self.provider.hub
        assert hub is not None, "a desktop with web apps always has a hub route"
        return hub.client(timeout_s=30.0)

    def _hub_get(self, hub, app: str, endpoint: str) -> dict:
        return self._hub_call(hub, "GET", app, endpoint)

    def _hub_call(self, hub, method: str, app: str, endpoint: str, body: dict | None = None) -> dict:
        import httpx

        try:
            response = hub.request(method, f"/{app}/{endpoint}", params={"sid": self.sid}, json=body)
        except httpx.HTTPError as exc:
            raise DesktopError(
                f"cannot reach the hub for {app} of desktop {self.id}: {exc}",
                hint="the hub process may have stopped; start it again (HubProcess) and reset the desktop",
            ) from None
        if response.status_code != 200:
            raise DesktopError(
                f"{method} /{app}/{endpoint} answered {response.status_code}: {response.text[:400]}",
                hint="see the hub's log (hub.log in its data dir)",
            )
        return response.json()

    def _web_state(self) -> dict[str, dict]:
        """Each web app's session state now: baseline and current, and whether it was ever set."""
        states = {}
        with self._hub() as hub:
            for app in self.web_apps:
                stored = self._hub_get(hub, app, "state")
                go = self._hub_get(hub, app, "go")
                states[app] = {
                    "set": bool(stored.get("has_custom_state")),
                    "baseline": go["initial_state"],
                    "current": go["current_state"],
                }
        return states

    def _restore_web_state(self, states: dict[str, dict] | None) -> None:
        """Put each web app's session back to `states` (from `_web_state`): its baseline with `set`
        (idempotent: the hub merges it with the app's defaults, which it already holds), then its
        current state when that differed. A session never set then and never set since is left be."""
        if not states:
            return
        with self._hub() as hub:
            for app, saved in states.items():
                if not saved["set"] and not self._hub_get(hub, app, "state").get("has_custom_state"):
                    continue
                self._hub_call(hub, "POST", app, "post", {"action": "set", "state": saved["baseline"]})
                if saved["current"] != saved["baseline"]:
                    body = {"action": "set_current", "state": saved["current"]}
                    self._hub_call(hub, "POST", app, "post", body)

    def pids(self) -> list[int]:
        """Host pids of the desktop's processes (X server, window manager, apps, the server)."""
        return self._sandbox.pids() if self._sandbox is not None else []

    def memory(self) -> DesktopMemory:
        if self._sandbox is None:
            raise DesktopError(f"desktop {self.id} is not running", hint="start() it first")
        return self._sandbox.memory()

    def close(self) -> None:
        if self.closed:
            return
        self._stop()
        if self._forwarder is not None:
            self._forwarder.close()
            self._forwarder = None
        self.closed = True
        if not self.provider.keep:
            shutil.rmtree(self.root, ignore_errors=True)


class DesktopProvider(EnvProvider):
    """Desktops as bubblewrap sandboxes under `root`, each with its own X server and apps."""

    name = "desktop"

    def __init__(
        self,
        root: Path,
        desktop_python: Path,
        *,
        config: DesktopConfig | None = None,
        script_limits: Limits | None = None,
        keep: bool = False,
        hub: HubRoute | None = None,
    ) -> None:
        self._configure(root, config=config, script_limits=script_limits, keep=keep, hub=hub)
        self.python = require_desktop_python(desktop_python)
        check_programs()

    def _configure(
        self,
        root: Path,
        *,
        config: DesktopConfig | None,
        script_limits: Limits | None,
        keep: bool,
        hub: HubRoute | None,
    ) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.config = config or DesktopConfig()
        self.script_limits = script_limits or Limits()
        self.keep = keep
        self.hub = hub  # how desktops with web apps reach the hub (its socket, bound into each)

    def new_sandbox(self, env: DesktopEnv) -> GuestSession:
        """The (not yet launched) session that runs `env`'s desktop: here a bubblewrap sandbox."""
        return DesktopSandbox(python=self.python, **self.session_args(env))

    def session_args(self, env: DesktopEnv) -> dict:
        """What every kind of session of `env` is made from: its folders, token, hub route and limits."""
        return {
            "home": env.home,
            "scripts": env.scripts,
            "log_path": env.log_path,
            "config": self.config,
            "token": env.token,
            "hub_socket": env.hub_socket(),
            "env": env.hub_env(),
        }

    def has_program(self, name: str) -> bool:
        """Whether a program exists inside this provider's desktops (here: on the host, bound in)."""
        return chromium_installed() if name == "chromium" else shutil.which(name) is not None

    def _web_apps(self, task_id: str, apps: Sequence[str]) -> list[str]:
        wanted = [app for app in apps if app in WEB_APPS]
        if wanted and self.hub is None:
            raise EnvError(
                f"task {task_id} needs the hub for {wanted}",
                hint="start one (HubProcess) and pass DesktopProvider(hub=HubRoute(...))",
            )
        missing = [app for app in wanted if self.hub is not None and app not in self.hub.apps]
        if missing:
            raise EnvError(
                f"task {task_id} needs {missing}, which the hub does not serve",
                hint="start the hub with every app (HubProcess without `apps`)",
            )
        return wanted

    def _new_env(
        self, task_id: str, role: EnvRole, from_snapshot: Snapshot | None, apps: Sequence[str]
    ) -> DesktopEnv:
        env_id = new_env_id()
        root = self.root / dir_safe(task_id) / env_id
        env = DesktopEnv(self, env_id, task_id, role, root, self._web_apps(task_id, apps))
        env.apps = tuple(apps)
        if from_snapshot is not None:
            shutil.rmtree(env.home)
            copy_home(Path(from_snapshot.ref), env.home)
        env.mark_initial()
        return env

    def provision(
        self, task_id: str, role: EnvRole, *, from_snapshot: Snapshot | None = None, apps: Sequence[str] = ()
    ) -> DesktopEnv:
        """A running desktop for (task, role) over `from_snapshot` (else an empty home). Apps start on
        demand (`open_file`, `open_web_app`, `setup_from_config`), once the task's files exist; web apps
        in `apps` give the desktop a hub session and its route (EnvError without a hub)."""
        env = self._new_env(task_id, role, from_snapshot, apps)
        try:
            env.start()
        except BaseException:
            env.close()
            raise
        return env

    def provision_many(
        self, task_id: str, role: EnvRole, count: int, *, apps: Sequence[str] = ()
    ) -> list[DesktopEnv]:
        """`count` desktops side by side, booted in parallel (all forked, then each waited for)."""
        envs = [self._new_env(task_id, role, None, apps) for _ in range(count)]
        try:
            for env in envs:
                env.launch()
            for env in envs:
                env.wait_ready()
        except BaseException:
            for env in envs:
                env.close()
            raise
        return envs
