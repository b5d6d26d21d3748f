"""The synthesis flow: sample → (per tuple: co-generate → scan → export) → teacher rollouts
(flows/teacher.py) → dataset export.

A tuple is one Prefect task run (its rounds live inside it); at most `workers` run at once. Every
step writes to the warehouse as it finishes, so re-running the same parameters resumes the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture

from flows.dask_runner import cluster_threads, dask_task_runner, wants_dask
from flows.publish import publish_output_task
from flows.retry_policy import retry_transient
from flows.teacher import teacher_stage
from flows.window import in_window
from flows.worker_tasks import cogenerate_tuple_task
from infra.settings import get_settings
from tasks.budget import budget_shortfall, merge_summaries
from tasks.coverage import coverage, coverage_chart
from tasks.decontam.stage import Decontaminator, build_decontaminator
from tasks.models import RunSummary, SynthParams, TaskSpec, TupleOutcome, TupleStatus
from tasks.plan import plan_batch
from tasks.progress import emit_progress
from tasks.publish import output_child
from tasks.quality import CheckResult, check_warehouse
from tasks.runtime import build_context, output_dir, run_id_for
from tasks.synthesize import (
    TupleContext,
    complete_tuple,
    record_failure,
    resumed_outcome,
    start_attempt,
    synthesize_tuple,
)
from tasks.tuple_worker import WorkerSetup, close_worker_deps
from warehouse.store import Warehouse


@task(name="plan-batch", cache_policy=NO_CACHE)
def plan_batch_task(params: SynthParams, run_id: str, warehouse: Warehouse) -> list[TaskSpec]:
    return plan_batch(params, get_settings(), run_id, warehouse)


@task(name="decontamination-index", cache_policy=NO_CACHE, persist_result=False)
def decontamination_index_task(params: SynthParams) -> Decontaminator | None:
    """The benchmark index, built once per batch before any work (a bad set fails the run here)."""
    return build_decontaminator(params.decontaminate)


@task(
    name="synthesize-tuple",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=[1, 5],
    retry_condition_fn=retry_transient,
)
def synthesize_tuple_task(spec: TaskSpec, ctx: TupleContext, again: bool = False) -> TupleOutcome:
    return synthesize_tuple(spec, ctx, again=again)


@task(name="export-dataset", cache_policy=NO_CACHE)
def export_dataset_task(warehouse: Warehouse, target: Path, out: str | None = None) -> int:
    """The tuples Parquet; under an s3:// `out`, its bundle paths name the published bundles."""
    published = output_child(out, "final")
    bundles_at = (str(target.parent / "final"), published) if published else None
    return warehouse.export_parquet(target, bundles_at=bundles_at)


@task(name="check-data", cache_policy=NO_CACHE)
def check_data_task(warehouse: Warehouse, run_id: str) -> list[CheckResult]:
    return check_warehouse(warehouse, run_id)


@task(name="coverage-chart", cache_policy=NO_CACHE)
def coverage_chart_task(warehouse: Warehouse, run_id: str, target: Path) -> Path:
    return coverage_chart(coverage(warehouse.path, run_id), target)


@flow(name="synthesis")
def synthesis_flow(params: SynthParams) -> RunSummary:
    """Synthesise a batch of `params.count` tuples — or, with `verified_budget`, batch after batch
    until the budget is verified and every app has its minimum (at most `max_batches`)."""
    logger = get_run_logger()
    summary = synthesize_batch(params)
    batches = [summary]
    while params.verified_budget and len(batches) < params.max_batches:
        missing = budget_shortfall(params, batches)
        if not missing:
            break
        logger.info("batch %d: %s; sampling another batch", len(batches), missing)
        next_params = params.model_copy(update={"seed": params.resolved_seed() + len(batches)})
        batches.append(synthesize_batch(next_params))
    if params.verified_budget and (missing := budget_shortfall(params, batches)):
        logger.warning("stopped after %d batches with %s", len(batches), missing)
    return merge_summaries(batches)


def synthesize_batch(params: SynthParams) -> RunSummary:
    """One batch (one run id): plan, co-generate every tuple, export, check, chart."""
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    run_id = run_id_for(params)
    warehouse = Warehouse(settings.warehouse_path)
    decontam = decontamination_index_task(params)
    ctx = build_context(params, settings, run_id, warehouse)
    ctx.decontam = decontam  # checked between co-generation and export (tasks/synthesize.py)
    outcomes: list[TupleOutcome] = []
    try:  # ctx holds child processes (the hub, the Discriminator worker): close them however this ends
        warehouse.start_run(
            run_id,
            backend=params.backend,
            seed=params.resolved_seed(),
            git_rev=ctx.provenance.git_rev,
            params=params.model_dump(mode="json"),
        )
        specs = plan_batch_task(params, run_id, warehouse)
        if decontam is not None:  # the batch's instructions embedded in one call, before any is checked
            decontam.prime(spec.instruction for spec in specs)
        emit_progress("tuples", 0, len(specs))
        outcomes = run_tuples(specs, ctx, params, warehouse)
    except BaseException:
        # what the failed batch recorded (a task writer's calls, say) is what its error tells readers to query
        warehouse.refresh_snapshot(force=True)
        raise
    finally:
        ctx.deps.close()
    if params.export:  # the bundles, before the long teacher stage
        publish_output_task(params.out, output_dir(params, settings))
    teacher = (
        teacher_stage(params, run_id, output_dir(params, settings), warehouse) if params.export else None
    )
    rows = export_dataset_task(warehouse, output_dir(params, settings) / "tuples.parquet", params.out)
    checks = check_data_task(warehouse, run_id)
    warehouse.refresh_snapshot(force=True)
    chart = coverage_chart_task(
        warehouse, run_id, output_dir(params, settings) / "reports" / f"{run_id}-coverage.png"
    )
    publish_output_task(params.out, output_dir(params, settings))  # trajectories, Parquet, chart
    summary = RunSummary(
        run_id=run_id,
        outcomes=outcomes,
        seconds=round(time.monotonic() - started, 3),
        warehouse=str(settings.warehouse_path),
        output=str(output_dir(params, settings)),
        checks_total=len(checks),
        coverage_chart=str(chart),
        checks_failed=[f"{c.suite}.{c.expectation}({c.column_name})" for c in checks if not c.success],
        teacher=teacher,
    )
    verified = summary.count(TupleStatus.EXPORTED) + summary.count(TupleStatus.VERIFIED)
    warehouse.finish_run(
        run_id,
        status="finished",
        summary={
            "verified": verified,
            "rejected": summary.count(TupleStatus.REJECTED),
            "tuples": len(outcomes),
            "parquet_rows": rows,
            "seconds": summary.seconds,
            "checks_failed": summary.checks_failed,
        },
    )
    warehouse.refresh_snapshot(force=True)
    logger.info(
        "run %s: %d tuples, %d verified, %d rejected in %.1f s",
        run_id,
        len(outcomes),
        verified,
        summary.count(TupleStatus.REJECTED),
        summary.seconds,
    )
    return summary


def run_tuples(
    specs: list[TaskSpec],
    ctx: TupleContext,
    params: SynthParams,
    warehouse: Warehouse,
    *,
    again: bool = False,
) -> list[TupleOutcome]:
    """Keep at most `params.workers` tuple tasks in flight — threads of this process, or Dask workers
    (`params.runner`; then one more queued per worker thread) — and report each as it finishes."""
    if not wants_dask(params.runner, params.dask_address):

        def submit(spec: TaskSpec):
            return synthesize_tuple_task.submit(spec, ctx, again)

        return _in_window(specs, submit, lambda future: future.result(), params.workers, ctx, warehouse)
    setup = WorkerSetup(params, get_settings(), ctx.run_id)
    with dask_task_runner(params.workers, params.dask_address, release=close_worker_deps) as runner:

        def submit_to_dask(spec: TaskSpec):
            """Resume or open the attempt here (the warehouse's one writer), co-generate on a worker."""
            try:
                done = resumed_outcome(spec, ctx, again=again)
                if done is not None:
                    return done
                job = start_attempt(spec, ctx)
            except Exception as exc:  # as a failing tuple task would be: recorded, the batch goes on
                return record_failure(spec, ctx, exc)
            return runner.submit(cogenerate_tuple_task, {"job": job, "setup": setup})

        def complete(future) -> TupleOutcome:
            return complete_tuple(future.result(), ctx)

        # One tuple queued behind each running one: what this process does between two tuples
        # (replay, export, open the next attempt) then overlaps co-generation instead of idling a worker.
        window = 2 * max(params.workers, cluster_threads(runner))
        return _in_window(specs, submit_to_dask, complete, window, ctx, warehouse)


def _in_window(
    specs: list[TaskSpec],
    submit: Callable[[TaskSpec], PrefectFuture | TupleOutcome],
    result: Callable[[PrefectFuture], TupleOutcome],
    workers: int,
    ctx: TupleContext,
    warehouse: Warehouse,
) -> list[TupleOutcome]:
    """At most `workers` submitted tuples at once; `submit` may answer at once (a resumed tuple)."""
    finished = 0

    def report(spec: TaskSpec, outcome: TupleOutcome) -> None:
        nonlocal finished
        finished += 1
        emit_progress(
            "tuples",
            finished,
            len(specs),
            task_id=spec.id,
            status=outcome.status.value,
            reason=outcome.reject_reason.value if outcome.reject_reason else "",
        )
        warehouse.refresh_snapshot()

    def finish(future: PrefectFuture, spec: TaskSpec) -> TupleOutcome:
        return _outcome(future, spec, ctx, result)

    def answered(submitted: PrefectFuture | TupleOutcome) -> bool:
        return isinstance(submitted, TupleOutcome)

    return in_window(specs, submit, finish, workers, report, answered=answered)


def _outcome(future, spec: TaskSpec, ctx: TupleContext, result) -> TupleOutcome:
    try:
        return result(future)
    except Exception as exc:  # retries exhausted on a transient failure: record it, the batch goes on
        return record_failure(spec, ctx, exc)
