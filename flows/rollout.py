"""The rollout flow: k episodes of a policy on each selected tuple, on real desktops.

An episode is one Prefect task run; at most `workers` desktops run at once. Every finished episode is
in the dataset (trajectories.jsonl + screenshot shards) and the warehouse before the next one is
counted, so re-running the same parameters resumes the run.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed

from infra.desktop_venv import ensure_desktop_python
from infra.envs.desktop import DesktopProvider
from infra.envs.local import WEB_APPS, HubRoute
from infra.errors import ConfigError
from infra.hub.process import HubProcess
from infra.settings import get_settings
from infra.trajectories import TrajectoryWriter, read_trajectories
from skills.kit import load_families
from tasks.models import RolloutOutcome, RolloutParams, RolloutSummary
from tasks.progress import emit_progress
from tasks.rollout.batch import RolloutContext, RolloutJob, pending, plan_jobs, rollout_run_id, run_rollout
from warehouse.store import Warehouse


@task(name="rollout", cache_policy=NO_CACHE)
def rollout_task(job: RolloutJob, ctx: RolloutContext) -> RolloutOutcome:
    return run_rollout(job, ctx)


def dataset_dir(params: RolloutParams) -> Path:
    return Path(params.out).resolve() if params.out else get_settings().output_dir.resolve() / "rollouts"


@flow(name="rollout")
def rollout_flow(params: RolloutParams) -> RolloutSummary:
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    warehouse = Warehouse(settings.warehouse_path)
    families = load_families(settings.skills_dir)
    run_id = rollout_run_id(params)
    jobs, skipped = plan_jobs(params, warehouse, families)
    needs_hub = any(app in WEB_APPS for job in jobs for app in job.spec.apps)
    hub = None
    if needs_hub:  # a unix socket under /tmp: socket paths are limited to 108 bytes
        hub = HubProcess(
            settings.var_dir / "hub" / run_id, Path(tempfile.mkdtemp(prefix="cuagym-hub-")) / "hub.sock"
        )
        hub.start()
    writer = TrajectoryWriter(dataset_dir(params))
    try:
        provider = DesktopProvider(
            settings.work_dir / "desktops",
            ensure_desktop_python(settings.desktop_venv_path),
            hub=HubRoute(hub.uds, WEB_APPS) if hub else None,
        )
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
        outcomes += run_episodes(left, ctx, params.workers, len(jobs), len(outcomes))
    finally:
        writer.close()
        if hub is not None:
            hub.stop()
    summary = RolloutSummary(
        run_id=run_id,
        dataset=str(writer.out),
        outcomes=outcomes,
        skipped=skipped,
        seconds=round(time.monotonic() - started, 3),
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


def run_episodes(jobs: list[RolloutJob], ctx: RolloutContext, workers: int, total: int, done: int) -> list:
    """Keep at most `workers` episodes in flight; report each as it finishes."""
    waiting = list(reversed(jobs))
    running = {}
    outcomes: list[RolloutOutcome] = []
    while waiting or running:
        while waiting and len(running) < workers:
            job = waiting.pop()
            running[rollout_task.submit(job, ctx)] = job
        for future in as_completed(list(running)):
            running.pop(future)
            outcomes.append(future.result())
            last = outcomes[-1]
            emit_progress(
                "rollouts",
                done + len(outcomes),
                total,
                task_id=last.rollout_id,
                status="solved"
                if last.reward == 1.0
                else "scored"
                if last.reward is not None
                else "no score",
            )
            ctx.warehouse.refresh_snapshot()
            break
    return outcomes


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


def llm_factory(params: RolloutParams):
    """A factory of LLM policies for `--policy llm` (one per episode), or None."""
    if params.policy != "llm":
        return None
    if not params.model:
        raise ConfigError(
            "--policy llm needs a model", hint="pass --model (and --api-base for a vLLM server)"
        )
    from tasks.rollout.llm_policy import LLMPolicy

    return lambda: LLMPolicy(
        params.model,
        params.model_family,
        api_base=params.api_base,
        temperature=params.temperature,
        max_tokens=params.max_tokens,
    )


def judge_factory(params: RolloutParams):
    """The judge of final states (`--judge-model`): (spec, initial view, final view) -> verdict, or None."""
    if not params.judge_model:
        return None
    from infra.llm import LLMClient
    from infra.llm_config import resolve_llm_settings
    from tasks.judge import judge_state

    flags = {"judge_model": params.judge_model, "judge_api_base": params.judge_api_base}
    client = LLMClient(resolve_llm_settings(flags=flags).role("judge"))
    return lambda spec, initial, final: judge_state(client, spec, final, final.changes_since(initial))
