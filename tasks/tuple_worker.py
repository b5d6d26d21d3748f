"""Co-generation in a worker process (the Dask runner): the worker's own deps, and a journal in place
of the warehouse.

A worker process cannot use the flow's deps (they hold child processes: the hub, the Discriminator
worker) nor write the warehouse (the flow process is its single writer). So each worker thread builds
its own deps from the run's parameters and settings, once per run (tasks/per_thread.py), and a
tuple's writes go to a WarehouseJournal that travels back with its result.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
from dataclasses import dataclass
from typing import Any

from infra.settings import Settings
from tasks.cogen import CogenDeps
from tasks.llm_roles import WarehouseCallSink
from tasks.models import SynthParams
from tasks.per_thread import PerThread
from tasks.runtime import build_deps
from tasks.synthesize import TupleJob, TupleWork, cogenerate_tuple
from tasks.vote import build_critic
from warehouse.journal import WarehouseJournal


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker needs to build a run's deps (plain data: it is pickled to every worker)."""

    params: SynthParams
    settings: Settings
    run_id: str

    @property
    def key(self) -> str:
        text = self.run_id + self.params.model_dump_json() + self.settings.model_dump_json()
        return hashlib.sha256(text.encode()).hexdigest()


class _CallRouter:
    """The model-call sink's warehouse on a worker: records go to the journal of the tuple in hand."""

    def __init__(self) -> None:
        self.journal: WarehouseJournal | None = None

    def save_llm_calls(self, rows) -> None:
        if self.journal is None:
            raise RuntimeError("a model call outside any tuple on a worker")  # a wiring bug, not input
        self.journal.save_llm_calls(rows)


@dataclass
class WorkerDeps:
    run_id: str
    deps: CogenDeps
    critic: Any
    router: _CallRouter


held_deps: PerThread[WorkerDeps] = PerThread(lambda held: held.deps.close())


def close_worker_deps() -> None:
    """Close this process's deps (the hubs and Discriminator workers they started): a run's end."""
    held_deps.close_all()


def cogenerate_on_worker(job: TupleJob, setup: WorkerSetup) -> TupleWork:
    """Co-generate one started attempt with this thread's deps; its writes come back in `journal`.

    A TransientError escapes for the task's retry, and the journal of that try goes with it: the
    retry redoes the attempt from round 1 (nothing of the failed try reached the warehouse)."""
    held = held_deps.get(setup.key, lambda: _build(setup))
    journal = WarehouseJournal()
    held.router.journal = journal
    try:
        work = cogenerate_tuple(job, held.deps, held.critic, journal)
    finally:
        held.router.journal = None
    work.journal = journal
    return work


def _build(setup: WorkerSetup) -> WorkerDeps:
    router = _CallRouter()
    sink = WarehouseCallSink(router, setup.run_id)
    # a hub of its own per thread: workers on one host must not share a session database
    own_hub = (
        setup.settings.var_dir
        / "hub"
        / f"worker-{socket.gethostname()}-{os.getpid()}-{threading.get_ident()}"
    )
    deps = build_deps(setup.params, setup.settings, call_sink=sink, hub_dir=own_hub)
    try:
        critic = build_critic(setup.params, setup.settings, sink)
    except BaseException:
        deps.close()
        raise
    return WorkerDeps(setup.run_id, deps, critic, router)
