"""Run a Discriminator backend in its own sandboxed process: the information barrier, enforced.

The worker process sees the Python it runs on and the project's source tree read-only — with the
var/ and output/ directories (where every Generator script and env lives) hidden behind empty
tmpfs mounts — plus a private working directory. Its only input is a `DiscriminatorRequest` (task,
skill, previous review, two state views) sent as one JSON line; its only output is a JSON line
holding reward.py. So a Discriminator cannot read what the Generator wrote, whatever its code does.
"""

from __future__ import annotations

import json
import logging
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from infra.errors import TransientError
from infra.library_env import LIBRARY_DEFAULTS
from infra.sandbox import Bind
from infra.sandbox.process import SandboxProcess
from infra.settings import PROJECT_ROOT, Settings
from tasks.agents.base import AgentOutputError, DiscriminatorOutput, DiscriminatorRequest

log = logging.getLogger(__name__)

WORKER_MODULE = "tasks.agents.discriminator_worker"


class DiscriminatorCrashedError(AgentOutputError, TransientError):
    """The isolated Discriminator process died or hung; a fresh one may succeed."""


def _hidden_paths(settings: Settings) -> list[str]:
    """Paths under the bound source tree that must be invisible to the Discriminator."""
    hidden = []
    for path in (settings.var_dir, settings.output_dir, PROJECT_ROOT / "var", PROJECT_ROOT / "output"):
        path = path.resolve()
        if path.is_dir() and PROJECT_ROOT in path.parents and str(path) not in hidden:
            hidden.append(str(path))
    return hidden


def worker_binds(skills_dir: Path | None = None) -> list[Bind]:
    """The interpreter, the code and the skills the worker needs, bound read-only at their own paths
    (a skills dir configured outside the checkout, CUAGYM_SKILLS_DIR, included)."""
    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), PROJECT_ROOT}
    if skills_dir is not None and PROJECT_ROOT not in skills_dir.resolve().parents:
        paths.add(skills_dir.resolve())
    return [Bind(p, str(p)) for p in sorted(paths)]


class IsolatedDiscriminator:
    """A Discriminator living in a sandboxed worker; one worker per thread, started on first use."""

    def __init__(
        self,
        backend: str,
        settings: Settings,
        *,
        network: bool = False,
        env: Mapping[str, str] | None = None,
        timeout_s: float = 600.0,
        binds: Sequence[Bind] = (),
        call_sink: Callable[[dict], None] | None = None,
        wants_files: bool = False,
        name: str | None = None,
    ) -> None:
        self.name = name or backend
        self.backend = backend
        self.settings = settings
        self.network = network
        self.env = dict(env or {})
        self.timeout_s = timeout_s
        self.binds = list(binds)  # extra read-only (or writable) paths, e.g. the guest Python
        self.call_sink = call_sink  # receives the worker's model-call records (dicts), ok or not
        self.wants_files = wants_files  # ask cogen to ship the states' small files in the request
        self._local = threading.local()
        self._workers: list[tuple[SandboxProcess, Path]] = []
        self._lock = threading.Lock()

    def _worker(self) -> SandboxProcess:
        worker = getattr(self._local, "worker", None)
        if worker is not None and worker.proc.poll() is None:
            return worker
        self.settings.var_dir.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix="discriminator-", dir=self.settings.var_dir))
        argv = [
            str(Path(sys.executable)),
            "-m",
            WORKER_MODULE,
            self.backend,
            str(self.settings.skills_dir.resolve()),
        ]
        env = {"PYTHONPATH": str(PROJECT_ROOT), **LIBRARY_DEFAULTS, **self.env}
        worker = SandboxProcess(
            argv,
            home=workdir / "home",
            log_path=workdir / "worker.log",
            env=env,
            binds=worker_binds(self.settings.skills_dir) + self.binds,
            masks=_hidden_paths(self.settings),
            network=self.network,
        )
        self._local.worker = worker
        with self._lock:
            self._workers.append((worker, workdir))
        return worker

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        worker = self._worker()
        try:
            raw = worker.request(request.model_dump_json().encode(), timeout_s=self.timeout_s)
        except (TimeoutError, EOFError) as exc:
            tail = worker.stderr_tail()
            worker.close()
            self._local.worker = None
            raise DiscriminatorCrashedError(
                f"the Discriminator process failed: {exc}; stderr: {tail[-800:]}",
                hint="see the worker log; the next round starts a fresh worker",
            ) from None
        try:
            reply = json.loads(raw)
        except ValueError:
            raise AgentOutputError(
                f"the Discriminator worker sent a non-JSON reply: {raw[:200]!r}",
                hint="workers must print exactly one JSON line per request",
            ) from None
        if self.call_sink is not None:
            for call in reply.get("calls") or []:
                self.call_sink(call)
        if not reply.get("ok"):
            raise AgentOutputError(
                f"Discriminator failed: {reply.get('error', 'no error text')}",
                hint=reply.get("hint", "see the REVIEW feedback"),
            )
        return DiscriminatorOutput(reward_py=reply["reward_py"], notes=reply.get("notes", ""))

    def close(self) -> None:
        with self._lock:
            workers, self._workers = self._workers, []
        for worker, workdir in workers:
            worker.close()
            shutil.rmtree(workdir, ignore_errors=True)
