"""The `local` env provider: one bubblewrap sandbox per env, its home a private host directory.

An env is a directory `<root>/<task>/<env_id>/` holding `home/` (mounted at /home/user) and
`runs/`: each script is staged alone in a fresh folder there, mounted read-only at
/opt/cuagym/scripts for its run and removed after it, so scripts never show up in the state view
and never see each other. Every script run is a fresh sandbox over the same home, which is exactly
what a VM with a persistent disk gives the pipeline, at process cost.

Nothing a script can observe tells the env's role: env ids and hub session ids are random, and
folder names never mention initial, golden or rollout.
"""

from __future__ import annotations

import logging
import shutil
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from infra.apps import web_apps
from infra.envs.base import (
    Capability,
    EnvProvider,
    EnvRole,
    FolderEnv,
    ScriptResult,
    Snapshot,
    StateView,
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
from infra.errors import EnvError
from infra.guest_python import require_guest_python
from infra.sandbox import Bind, Isolation, Limits, prepare_home, run_in_sandbox
from infra.settings import private_dir

log = logging.getLogger(__name__)

SCRIPTS_DIR = "/opt/cuagym/scripts"
HUB_SOCKET = "/run/cuagym/hub.sock"
HUB_ROUTE = "/opt/cuagym/bin/hub_route.py"
HUB_ROUTE_SOURCE = Path(__file__).resolve().parents[1] / "hub_route.py"
GUEST_HUB_PORT = 8400
WEB_APPS = web_apps()  # declared in skills/*/app.yaml (infra/apps.py), as infra.hub.ALL_APPS


@dataclass(frozen=True)
class HubRoute:
    """How envs reach a running hub: its unix socket and the apps it hosts."""

    uds: Path
    apps: tuple[str, ...]

    def client(self, timeout_s: float = 10.0):
        import httpx

        return httpx.Client(
            transport=httpx.HTTPTransport(uds=str(self.uds)), base_url="http://hub", timeout=timeout_s
        )

    def pinned_socket(self, sid: str) -> Path:
        """A socket of the hub that serves session `sid` only (infra/hub/routes.py): what is bound
        into an env, so its scripts and browser cannot reach any other env's session."""
        with self.client() as client:
            response = client.post("/_hub/routes", json={"sid": sid})
        if response.status_code != 200:
            raise EnvError(
                f"the hub at {self.uds} did not open a route for session {sid}: "
                f"{response.status_code} {response.text[:200]}",
                hint="start the hub with HubProcess (python -m infra.hub), which serves pinned routes",
            )
        return Path(response.json()["socket"])


class LocalEnv(FolderEnv):
    capabilities = frozenset({Capability.RUN_SCRIPT, Capability.STATE_VIEW, Capability.SNAPSHOT})

    def __init__(
        self,
        provider: LocalProvider,
        env_id: str,
        task_id: str,
        role: EnvRole,
        root: Path,
        web_apps: Sequence[str] = (),
    ) -> None:
        super().__init__(provider, env_id, task_id, role, root)
        self.web_apps = tuple(web_apps)
        # One hub session per env (initial_env and golden_env must not share web state), named at
        # random: scripts read it from CUAGYM_SID, so it must not say which env it belongs to.
        self.sid = uuid.uuid4().hex
        self.home = root / "home"
        self.runs = root / "runs"
        prepare_home(self.home)

    def run_script(
        self, source: str, *, name: str, limits: Limits | None = None, env: Mapping[str, str] | None = None
    ) -> ScriptResult:
        self._check_open()
        with staged_script(self.runs, name, source) as folder:
            return self._run_staged(folder, name, limits, env)

    def _run_staged(self, folder: Path, name: str, limits: Limits | None, env: Mapping[str, str] | None):
        boxed = self.provider.isolation is Isolation.BWRAP
        argv = ["python3", f"{SCRIPTS_DIR}/{name}" if boxed else str(folder / name)]
        binds = [Bind(folder, SCRIPTS_DIR)]
        variables = dict(env or {})
        hub = self.provider.hub
        if self.web_apps and hub is not None:
            variables |= {"CUAGYM_HUB_URL": f"http://127.0.0.1:{GUEST_HUB_PORT}", "CUAGYM_SID": self.sid}
            if boxed:  # the guest's loopback port is forwarded to the hub socket, the only door in
                argv = ["python3", HUB_ROUTE, "--uds", HUB_SOCKET, "--port", str(GUEST_HUB_PORT), "--", *argv]
                binds += [Bind(hub.pinned_socket(self.sid), HUB_SOCKET), Bind(HUB_ROUTE_SOURCE, HUB_ROUTE)]
        return run_in_sandbox(
            argv,
            home=self.home,
            limits=limits or self.provider.limits,
            env=variables,
            binds=binds,
            guest_python=self.provider.guest_python,
            identity_dir=self.provider.root / ".identity",
            isolation=self.provider.isolation,
        )

    def state_view(self) -> StateView:
        self._check_open()
        files, truncated = walk_state(self.home)
        if truncated:
            log.warning("state view of %s truncated at %d entries", self.id, MAX_STATE_ENTRIES)
        return StateView(env_id=self.id, role=self.role, files=files, app_state=self._app_state())

    def _app_state(self) -> dict | None:
        """Each web app's {initial_state, current_state, state_diff} for this env's session."""
        hub = self.provider.hub
        if not self.web_apps or hub is None:
            return None
        with hub.client() as client:
            return {app: client.get(f"/{app}/go", params={"sid": self.sid}).json() for app in self.web_apps}

    def read_file(self, path: str, *, max_bytes: int = 16 * 1024 * 1024) -> bytes:
        self._check_open()
        return read_home_file(self.home, path, max_bytes=max_bytes)

    def snapshot(self) -> Snapshot:
        self._check_open()
        self._snapshots += 1
        target = self.root / "snapshots" / str(self._snapshots)
        copy_home(self.home, target)
        return Snapshot(env_id=self.id, ref=str(target))

    def restore(self, snapshot: Snapshot) -> None:
        self._check_open()
        shutil.rmtree(self.home, ignore_errors=True)
        copy_home(Path(snapshot.ref), self.home)


class LocalProvider(EnvProvider):
    """Envs as bubblewrap sandboxes under `root` (one directory per env)."""

    name = "local"

    def __init__(
        self,
        root: Path,
        guest_python: Path,
        *,
        limits: Limits | None = None,
        isolation: Isolation = Isolation.BWRAP,
        keep: bool = False,
        hub: HubRoute | None = None,
    ) -> None:
        self.root = private_dir(root.resolve())
        self.guest_python = require_guest_python(guest_python)
        self.limits = limits or Limits()
        self.isolation = isolation
        self.keep = keep
        self.hub = hub

    def provision(
        self, task_id: str, role: EnvRole, *, from_snapshot: Snapshot | None = None, apps: Sequence[str] = ()
    ) -> LocalEnv:
        env_id = new_env_id()
        web_apps = [a for a in apps if self.hub is not None and a in self.hub.apps]
        if any(a in WEB_APPS for a in apps) and self.hub is None:
            raise EnvError(
                f"task {task_id} needs the hub for {[a for a in apps if a in WEB_APPS]}",
                hint="start one (HubProcess) and pass LocalProvider(hub=HubRoute(...))",
            )
        env = LocalEnv(self, env_id, task_id, role, self.root / dir_safe(task_id) / env_id, web_apps)
        if from_snapshot is not None:
            env.restore(from_snapshot)
        return env
