"""Rollout episodes in a worker process (the Dask runner): the worker's own desktops (and hub).

The worker plays an episode and sends it back whole (trajectory and screenshots); the flow process
writes the dataset and the warehouse, as it does for its own episodes. The bundles are read where
the job's path points, so a remote cluster needs them on a disk its workers share.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
from dataclasses import dataclass

from infra.hub.process import HubProcess
from infra.settings import Settings
from skills.kit import load_families
from tasks.models import RolloutParams
from tasks.per_thread import PerThread
from tasks.rollout.batch import Played, RolloutContext, RolloutJob, play_rollout
from tasks.rollout.desktops import rollout_provider, start_rollout_hub
from tasks.rollout.factories import judge_factory, llm_factory


@dataclass(frozen=True)
class EpisodeSetup:
    """What a worker needs to build a run's desktops (plain data: it is pickled to every worker)."""

    params: RolloutParams
    settings: Settings
    run_id: str
    needs_hub: bool

    @property
    def key(self) -> str:
        text = (
            f"{self.run_id}{self.needs_hub}" + self.params.model_dump_json() + self.settings.model_dump_json()
        )
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class _Players:
    ctx: RolloutContext
    hub: HubProcess | None

    def close(self) -> None:
        if self.hub is not None:
            self.hub.stop()


held_players: PerThread[_Players] = PerThread(lambda held: held.close())


def close_worker_players() -> None:
    """Stop this process's hubs (a run's end); desktops are closed by each episode."""
    held_players.close_all()


def play_on_worker(job: RolloutJob, setup: EpisodeSetup) -> Played:
    """Play one episode with this thread's desktops provider; never raises for the episode itself."""
    held = held_players.get(setup.key, lambda: _build(setup))
    return play_rollout(job, held.ctx)


def _build(setup: EpisodeSetup) -> _Players:
    settings = setup.settings
    hub = None
    if setup.needs_hub:  # a data dir per worker thread
        name = f"rollout-worker-{socket.gethostname()}-{os.getpid()}-{threading.get_ident()}"
        hub = start_rollout_hub(settings, name)
    try:
        provider = rollout_provider(settings, hub, setup.params.env)
        ctx = RolloutContext(
            setup.params,
            setup.run_id,
            provider,
            None,
            None,
            load_families(settings.skills_dir),
            llm_policy=llm_factory(setup.params),
            judge=judge_factory(setup.params),
        )
    except BaseException:
        if hub is not None:
            hub.stop()
        raise
    return _Players(ctx, hub)
