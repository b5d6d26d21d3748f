"""The `desktop` provider: desktops as bubblewrap sandboxes, one X server each (see the package's
docstring); the docker provider (infra/envs/docker/) reuses it with another kind of session."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from infra.desktop_venv import require_desktop_python
from infra.envs.base import EnvProvider, EnvRole, Snapshot
from infra.envs.desktop.browser import chromium_installed
from infra.envs.desktop.env import DesktopEnv
from infra.envs.desktop.sandbox import (
    DesktopConfig,
    DesktopSandbox,
    GuestSession,
    check_programs,
)
from infra.envs.home import (
    copy_home,
    dir_safe,
    new_env_id,
)
from infra.envs.local import WEB_APPS, HubRoute
from infra.errors import EnvError
from infra.sandbox import Limits


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
