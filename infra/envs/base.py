"""The env provider interface: what every place a task can run in (local sandbox, desktop, docker
container, libvirt VM) offers to the pipeline.

An `Env` is one guest with a home at /home/user. The pipeline provisions one per role (initial_env,
golden_env, a rollout), runs scripts in it, reads a *state view* (what the Discriminator is allowed
to see), and closes it. Richer providers add capabilities (snapshot/restore, screenshots, GUI input);
callers check `env.capabilities` instead of catching surprises.
"""

from __future__ import annotations

import abc
import contextlib
import shutil
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from infra.errors import EnvError
from infra.sandbox import Limits, SandboxResult

if TYPE_CHECKING:
    from infra.envs.desktop.actions import GuiAction

ScriptResult = SandboxResult


class EnvRole(StrEnum):
    INITIAL = "initial"
    GOLDEN = "golden"
    ROLLOUT = "rollout"
    DEBUG = "debug"


class Capability(StrEnum):
    RUN_SCRIPT = "run_script"
    STATE_VIEW = "state_view"
    SNAPSHOT = "snapshot"
    SCREENSHOT = "screenshot"
    GUI_INPUT = "gui_input"
    HUB = "hub"


class FileEntry(BaseModel):
    """One path under the guest home. Symlinks are reported, never followed."""

    path: str  # relative to /home/user, POSIX separators
    kind: Literal["file", "dir", "symlink", "other"]
    size: int = 0
    mode: str = "0644"
    sha256: str | None = None
    unhashed: str | None = None  # why a file has no sha256 (e.g. its apparent size is over the cap)
    target: str | None = None  # symlink target as written, not resolved


def _fingerprint(f: FileEntry) -> tuple:
    # A file too large to hash still shows a change of size.
    return (f.sha256, f.kind, f.target, f.size if f.sha256 is None else None)


class StateView(BaseModel):
    """What an env looks like from outside: its file tree (and, for web tasks, app state)."""

    env_id: str
    role: EnvRole
    files: list[FileEntry]
    app_state: dict[str, Any] | None = None
    taken_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def entry(self, path: str) -> FileEntry | None:
        return next((f for f in self.files if f.path == path), None)

    def summary(self) -> str:
        """A compact listing for prompts and reviews: one line per non-empty path."""
        lines = []
        for f in self.files:
            if f.kind == "dir":
                continue
            detail = f"-> {f.target}" if f.kind == "symlink" else f"{f.size} B sha256:{(f.sha256 or '')[:12]}"
            lines.append(f"{f.path}  [{f.kind} {f.mode}] {detail}")
        return "\n".join(lines) or "(home holds only empty folders)"

    def without(self, prefixes: tuple[str, ...]) -> StateView:
        """The same view less the paths under `prefixes` (e.g. an application's own profile)."""
        kept = [f for f in self.files if not any((f.path + "/").startswith(p) for p in prefixes)]
        return self.model_copy(update={"files": kept})

    def changes_since(self, before: StateView) -> str:
        """Paths added, removed or modified since `before` (by content hash), in one line."""
        old = {f.path: f for f in before.files}
        new = {f.path: f for f in self.files}
        changed = sorted(p for p in set(old) & set(new) if _fingerprint(old[p]) != _fingerprint(new[p]))
        parts = [
            f"{label}: {', '.join(paths[:40])}"
            for label, paths in (
                ("added", sorted(set(new) - set(old))),
                ("removed", sorted(set(old) - set(new))),
                ("modified", changed),
            )
            if paths
        ]
        return "; ".join(parts) or "nothing (the two states are identical)"


class Snapshot(BaseModel):
    env_id: str
    ref: str  # provider-specific: an archive path, a docker image id, a libvirt snapshot name


class Env(abc.ABC):
    """One guest. Use as a context manager so it is always closed."""

    capabilities: frozenset[Capability] = frozenset({Capability.RUN_SCRIPT, Capability.STATE_VIEW})

    def __init__(self, env_id: str, task_id: str, role: EnvRole) -> None:
        self.id = env_id
        self.task_id = task_id
        self.role = role
        self.closed = False

    @abc.abstractmethod
    def run_script(
        self, source: str, *, name: str, limits: Limits | None = None, env: Mapping[str, str] | None = None
    ) -> ScriptResult:
        """Run a Python script (its source text) as `python3 <name>` in the guest."""

    @abc.abstractmethod
    def state_view(self) -> StateView: ...

    @abc.abstractmethod
    def read_file(self, path: str, *, max_bytes: int = 16 * 1024 * 1024) -> bytes:
        """Bytes of a regular file under /home/user (`path` relative or absolute guest path)."""

    def snapshot(self) -> Snapshot:
        raise EnvError(f"{type(self).__name__} cannot snapshot", hint="check env.capabilities first")

    def restore(self, snapshot: Snapshot) -> None:
        raise EnvError(f"{type(self).__name__} cannot restore", hint="check env.capabilities first")

    def screenshot(self) -> bytes:
        raise EnvError(
            f"{type(self).__name__} has no screen", hint="use the desktop provider for screenshots"
        )

    def gui_input(self, action: GuiAction, *, at: tuple[int, int] | None = None) -> None:
        raise EnvError(
            f"{type(self).__name__} has no screen to act on", hint="use the desktop provider for GUI input"
        )

    @abc.abstractmethod
    def close(self) -> None: ...

    def _check_open(self) -> None:
        if self.closed:
            raise EnvError(f"env {self.id} is closed", hint="provision a new env")

    def __enter__(self) -> Env:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FolderEnv(Env):
    """An env whose files live in a folder of its own (`root`, under its provider's), as all of ours
    do. `close` releases what the env runs (`_release`), then removes the folder — and the task's
    folder above it once its last env is gone — unless the provider keeps envs (`provider.keep`).
    `mark_initial` records the state `reset()` returns to."""

    def __init__(self, provider: Any, env_id: str, task_id: str, role: EnvRole, root: Path) -> None:
        super().__init__(env_id, task_id, role)
        self.provider = provider
        self.root = root
        self._snapshots = 0
        self._initial: Snapshot | None = None

    def mark_initial(self) -> Snapshot:
        """Record the env as it is now as the state `reset()` returns to (call after a task's setup)."""
        self._initial = self.snapshot()
        return self._initial

    def _release(self) -> None:
        """Stop what the env runs (a sandbox, a guest, forwarders); a plain folder env runs nothing."""

    def close(self) -> None:
        """Idempotent: the second call does nothing."""
        if self.closed:
            return
        self._release()
        self.closed = True
        if not self.provider.keep:
            shutil.rmtree(self.root, ignore_errors=True)
            with contextlib.suppress(OSError):  # not empty: another env of the task is still there
                self.root.parent.rmdir()


class EnvProvider(abc.ABC):
    name: str

    @abc.abstractmethod
    def provision(
        self, task_id: str, role: EnvRole, *, from_snapshot: Snapshot | None = None, apps: Sequence[str] = ()
    ) -> Env:
        """A fresh env for (task, role); from a snapshot when given, else an empty home. `apps` are
        the task's apps: a provider starts what they need (a hub session, a desktop app…)."""
