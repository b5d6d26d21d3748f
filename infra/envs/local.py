"""The `local` env provider: one bubblewrap sandbox per env, its home a private host directory.

An env is a directory `<root>/<env_id>/` holding `home/` (mounted at /home/user) and `scripts/`
(mounted read-only at /opt/cuagym/scripts, so the scripts never show up in the state view). Every
script run is a fresh sandbox over the same home, which is exactly what a VM with a persistent disk
gives the pipeline, at process cost.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import stat
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from infra.envs.base import (
    Capability,
    Env,
    EnvProvider,
    EnvRole,
    FileEntry,
    ScriptResult,
    Snapshot,
    StateView,
)
from infra.errors import EnvError
from infra.guest import require_guest_python
from infra.sandbox import GUEST_HOME, Bind, Isolation, Limits, prepare_home, run_in_sandbox

log = logging.getLogger(__name__)

SCRIPTS_DIR = "/opt/cuagym/scripts"
HUB_SOCKET = "/run/cuagym/hub.sock"
HUB_ROUTE = "/opt/cuagym/bin/hub_route.py"
HUB_ROUTE_SOURCE = Path(__file__).resolve().parents[1] / "hub_route.py"
GUEST_HUB_PORT = 8400
WEB_APPS = ("chat", "tracker", "store", "mail")  # infra.hub.ALL_APPS, without importing FastAPI here


@dataclass(frozen=True)
class HubRoute:
    """How envs reach a running hub: its unix socket and the apps it hosts."""

    uds: Path
    apps: tuple[str, ...]

    def client(self, timeout_s: float = 10.0):
        import httpx

        return httpx.Client(transport=httpx.HTTPTransport(uds=str(self.uds)), base_url="http://hub",
                            timeout=timeout_s)  # fmt: skip
MAX_STATE_ENTRIES = 20_000  # a script that creates millions of files must not stall the pipeline


def _safe_name(name: str) -> str:
    if not name or "/" in name or name.startswith(".") or len(name) > 128:
        raise EnvError(f"invalid script name {name!r}", hint="use a plain file name such as reward.py")
    return name


def walk_state(home: Path, *, max_entries: int = MAX_STATE_ENTRIES) -> tuple[list[FileEntry], bool]:
    """List everything under `home` without following symlinks; returns (entries, truncated)."""
    entries: list[FileEntry] = []
    stack = [home]
    while stack:
        current = stack.pop()
        try:
            children = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError:
            continue
        for child in children:
            if len(entries) >= max_entries:
                return entries, True
            rel = Path(child.path).relative_to(home).as_posix()
            st = child.stat(follow_symlinks=False)
            mode = f"{stat.S_IMODE(st.st_mode):04o}"
            if child.is_symlink():
                entries.append(FileEntry(path=rel, kind="symlink", mode=mode, target=os.readlink(child.path)))
            elif child.is_dir(follow_symlinks=False):
                entries.append(FileEntry(path=rel, kind="dir", mode=mode))
                stack.append(Path(child.path))
            elif child.is_file(follow_symlinks=False):
                entries.append(FileEntry(path=rel, kind="file", size=st.st_size, mode=mode,
                                         sha256=_sha256(Path(child.path))))  # fmt: skip
            else:
                entries.append(FileEntry(path=rel, kind="other", mode=mode))
    entries.sort(key=lambda e: e.path)
    return entries, False


def _sha256(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def resolve_guest_path(home: Path, path: str) -> Path:
    """Map a guest path (absolute under /home/user, or relative to it) to the host, refusing escapes."""
    p = PurePosixPath(path)
    if p.is_absolute():
        try:
            p = p.relative_to(GUEST_HOME)
        except ValueError:
            raise EnvError(f"{path!r} is outside {GUEST_HOME}", hint="envs expose only the guest home") from None
    host = (home / p).resolve()
    if host != home.resolve() and home.resolve() not in host.parents:
        raise EnvError(f"{path!r} resolves outside the env home", hint="symlinks out of the home are not followed")
    return host


class LocalEnv(Env):
    capabilities = frozenset({Capability.RUN_SCRIPT, Capability.STATE_VIEW, Capability.SNAPSHOT})

    def __init__(self, provider: LocalProvider, env_id: str, task_id: str, role: EnvRole, root: Path,
                 web_apps: Sequence[str] = ()) -> None:  # fmt: skip
        super().__init__(env_id, task_id, role)
        self.provider = provider
        self.web_apps = tuple(web_apps)
        # One hub session per env: initial_env and golden_env must not share web state.
        self.sid = "".join(c if c.isalnum() or c in "-_" else "-" for c in f"{task_id}-{env_id}")[-128:]
        self.root = root
        self.home = root / "home"
        self.scripts = root / "scripts"
        self.scripts.mkdir(parents=True, exist_ok=True)
        prepare_home(self.home)
        self._snapshots = 0

    def run_script(
        self, source: str, *, name: str, limits: Limits | None = None, env: Mapping[str, str] | None = None
    ) -> ScriptResult:
        self._check_open()
        name = _safe_name(name)
        (self.scripts / name).write_text(source, encoding="utf-8")
        boxed = self.provider.isolation is Isolation.BWRAP
        argv = ["python3", f"{SCRIPTS_DIR}/{name}" if boxed else str(self.scripts / name)]
        binds = [Bind(self.scripts, SCRIPTS_DIR)]
        variables = dict(env or {})
        hub = self.provider.hub
        if self.web_apps and hub is not None:
            variables |= {"CUAGYM_HUB_URL": f"http://127.0.0.1:{GUEST_HUB_PORT}", "CUAGYM_SID": self.sid}
            if boxed:  # the guest's loopback port is forwarded to the hub socket, the only door in
                argv = ["python3", HUB_ROUTE, "--uds", HUB_SOCKET, "--port", str(GUEST_HUB_PORT), "--", *argv]
                binds += [Bind(hub.uds, HUB_SOCKET), Bind(HUB_ROUTE_SOURCE, HUB_ROUTE)]
        return run_in_sandbox(argv, home=self.home, limits=limits or self.provider.limits, env=variables,
                              binds=binds, guest_python=self.provider.guest_python,
                              identity_dir=self.provider.root / ".identity", isolation=self.provider.isolation)  # fmt: skip

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
        host = resolve_guest_path(self.home, path)
        try:
            fd = os.open(host, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            raise EnvError(f"no file {path!r} in env {self.id}", hint="list files with state_view()") from None
        except OSError as exc:
            raise EnvError(f"cannot read {path!r}: {exc}", hint="only regular files can be read") from None
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise EnvError(f"{path!r} is not a regular file", hint="only regular files can be read")
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise EnvError(f"{path!r} is larger than {max_bytes} bytes", hint="raise max_bytes")
        return data

    def snapshot(self) -> Snapshot:
        self._check_open()
        self._snapshots += 1
        target = self.root / "snapshots" / str(self._snapshots)
        shutil.copytree(self.home, target, symlinks=True)
        return Snapshot(env_id=self.id, ref=str(target))

    def restore(self, snapshot: Snapshot) -> None:
        self._check_open()
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.copytree(snapshot.ref, self.home, symlinks=True)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if not self.provider.keep:
            shutil.rmtree(self.root, ignore_errors=True)


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
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.guest_python = require_guest_python(guest_python)
        self.limits = limits or Limits()
        self.isolation = isolation
        self.keep = keep
        self.hub = hub

    def provision(self, task_id: str, role: EnvRole, *, from_snapshot: Snapshot | None = None,
                  apps: Sequence[str] = ()) -> LocalEnv:  # fmt: skip
        env_id = f"{role.value}-{uuid.uuid4().hex[:10]}"
        web_apps = [a for a in apps if self.hub is not None and a in self.hub.apps]
        if any(a in WEB_APPS for a in apps) and self.hub is None:
            raise EnvError(f"task {task_id} needs the hub for {[a for a in apps if a in WEB_APPS]}",
                           hint="start one (HubProcess) and pass LocalProvider(hub=HubRoute(...))")  # fmt: skip
        env = LocalEnv(self, env_id, task_id, role, self.root / _dir_safe(task_id) / env_id, web_apps)
        if from_snapshot is not None:
            env.restore(from_snapshot)
        return env


def _dir_safe(task_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in task_id)[:120] or "task"
