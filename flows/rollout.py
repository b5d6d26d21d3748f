"""The rollout flow: k episodes of a policy on each selected tuple, on real desktops.

An episode is one Prefect task run; at most `workers` desktops run at once. Every finished episode is
in the dataset (trajectories.jsonl + screenshot shards) and the warehouse before the next one is
counted, so re-running the same parameters resumes the run.
"""

from __future__ import annotations

import time
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.dask_runner import cluster_threads, dask_task_runner, wants_dask
from flows.publish import publish_output_task, restore_output_task
from flows.window import in_window
from flows.worker_tasks import play_episode_task
from infra.envs.local import WEB_APPS
from infra.settings import get_settings
from infra.trajectories import TrajectoryWriter, read_trajectories
from skills.kit import load_families
from tasks.models import RolloutOutcome, RolloutParams, RolloutSummary
from tasks.progress import emit_progress
from tasks.publish import local_output_dir
from tasks.rollout.batch import (
    RolloutContext,
    RolloutJob,
    pending,
    plan_jobs,
    record_rollout,
    rollout_run_id,
    run_rollout,
)
from tasks.rollout.desktops import rollout_provider, start_rollout_hub
from tasks.rollout.factories import judge_factory, llm_factory
from tasks.rollout.standby import Standby
from tasks.rollout.worker import EpisodeSetup, close_worker_players
from warehouse.store import Warehouse


@task(name="rollout", cache_policy=NO_CACHE)
def rollout_task(job: RolloutJob, ctx: RolloutContext) -> RolloutOutcome:
    return run_rollout(job, ctx)


def dataset_dir(params: RolloutParams) -> Path:
    settings = get_settings()
    return local_output_dir(params.out, settings.output_dir / "rollouts", settings)


@flow(name="rollout")
def rollout_flow(params: RolloutParams) -> RolloutSummary:
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    warehouse = Warehouse(settings.warehouse_path)
    families = load_families(settings.skills_dir)
    run_id = rollout_run_id(params)
    jobs, skipped = plan_jobs(params, warehouse, families)
    restore_output_task(params.out, dataset_dir(params))  # appended to, never replaced, on S3
    needs_hub = any(app in WEB_APPS for job in jobs for app in job.spec.apps)
    hub = start_rollout_hub(settings, run_id) if needs_hub else None
    writer = TrajectoryWriter(dataset_dir(params))
    ctx = None
    try:
        provider = rollout_provider(settings, hub, params.env)
        ctx = RolloutContext(
            params,
            run_id,
            provider,
            writer,
            warehouse,
            families,
            llm_policy=llm_factory(params),
            judge=judge_factory(params),
        )
        warehouse.start_rollout_run(run_id, params.model_dump(mode="json"))
        left = pending(jobs, ctx)
        outcomes = resumed_outcomes([job for job in jobs if job not in left], writer)
        ctx.standby = _standby(params, provider, left)
        outcomes += run_episodes(left, ctx, params.workers, len(jobs), len(outcomes))
    finally:
        if ctx is not None and ctx.standby is not None:
            ctx.standby.close()
        writer.close()
        if hub is not None:
            hub.stop()
    publish_output_task(params.out, writer.out)
    summary = RolloutSummary(
        run_id=run_id,
        dataset=str(writer.out),
        outcomes=outcomes,
        skipped=skipped,
        seconds=round(time.monotonic() - started, 3),
        desktop_waits_s=[round(w, 3) for w in ctx.standby.waits] if ctx.standby else [],
    )
    warehouse.finish_rollout_run(
        run_id, {"rollouts": len(outcomes), "solved": summary.solved, "skipped": len(skipped)}
    )
    warehouse.refresh_snapshot(force=True)
    logger.info(
        "%s: %d rollouts, %d solved, %d tuples skipped in %.1f s",
        run_id,
        len(outcomes),
        summary.solved,
        len(skipped),
        summary.seconds,
    )
    return summary


def _standby(params: RolloutParams, provider, jobs: list[RolloutJob]) -> Standby | None:
    """Desktops set up ahead, when asked for and the episodes play in this process."""
    if not params.standby or wants_dask(params.runner, params.dask_address):
        return None
    standby = Standby(provider)
    for job in jobs:
        standby.expect(job.bundle, 1)
    return standby


def run_episodes(jobs: list[RolloutJob], ctx: RolloutContext, workers: int, total: int, done: int) -> list:
    """Keep at most `workers` episodes in flight — threads of this process, or Dask workers
    (`ctx.params.runner`) that play them and send them back to be recorded here — and report each
    as it finishes."""
    params = ctx.params
    if not wants_dask(params.runner, params.dask_address):

        def submit(job: RolloutJob):
            return rollout_task.submit(job, ctx)

        return _in_window(jobs, submit, lambda future: future.result(), workers, ctx, total, done)
    setup = EpisodeSetup(params, get_settings(), ctx.run_id, needs_hub=ctx.provider.hub is not None)
    with dask_task_runner(workers, params.dask_address, release=close_worker_players) as runner:

        def submit_to_dask(job: RolloutJob):
            return runner.submit(play_episode_task, {"job": job, "setup": setup})

        def record(future) -> RolloutOutcome:
            return record_rollout(future.result(), ctx)

        window = max(workers, cluster_threads(runner))
        return _in_window(jobs, submit_to_dask, record, window, ctx, total, done)


def _in_window(jobs, submit, result, workers: int, ctx: RolloutContext, total: int, done: int) -> list:
    finished = done

    def report(job: RolloutJob, last: RolloutOutcome) -> None:
        nonlocal finished
        finished += 1
        status = "solved" if last.reward == 1.0 else "scored" if last.reward is not None else "no score"
        emit_progress("rollouts", finished, total, task_id=last.rollout_id, status=status)
        ctx.warehouse.refresh_snapshot()

    return in_window(jobs, submit, lambda future, job: result(future), workers, report)


def resumed_outcomes(done: list[RolloutJob], writer: TrajectoryWriter) -> list[RolloutOutcome]:
    """What a resumed run already holds, read back from the dataset (its rewards are not redone)."""
    written = {t.task_id: t for t in read_trajectories(writer.out)}
    return [
        RolloutOutcome(
            rollout_id=job.rollout_id,
            tuple_id=job.spec.id,
            family=job.spec.family,
            reward=written[job.rollout_id].reward,
            resumed=True,
        )
        for job in done
    ]
