"""The Prefect tasks the Dask runner sends to worker processes.

They live apart from the flows so that a worker, which imports a task's module to unpickle it, loads
only what co-generation needs — not the sampler, the data-quality suites or the charts.
"""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from flows.retry_policy import retry_transient
from tasks.rollout.batch import Played, RolloutJob
from tasks.rollout.worker import EpisodeSetup, play_on_worker
from tasks.synthesize import TupleJob, TupleWork
from tasks.tuple_worker import WorkerSetup, cogenerate_on_worker


# The same name as the local runner's tuple task: to an operator it is the same step. The flow
# process opens the attempt before, and replays the journal and writes the bundle after.
@task(
    name="synthesize-tuple",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=[1, 5],
    retry_condition_fn=retry_transient,
)
def cogenerate_tuple_task(job: TupleJob, setup: WorkerSetup) -> TupleWork:
    return cogenerate_on_worker(job, setup)


# The rollout runner's episode task under the same name; the flow process writes what it played.
@task(name="rollout", cache_policy=NO_CACHE)
def play_episode_task(job: RolloutJob, setup: EpisodeSetup) -> Played:
    return play_on_worker(job, setup)
