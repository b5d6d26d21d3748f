"""The retry flow: re-run selected finished tuples (by id, status, reject reason, app) as new
attempts. An operator fills the parameters in the Prefect UI (the `retry` deployment) or runs
`cuagym retry`. Old attempts and their reviews stay in the warehouse."""

from __future__ import annotations

import time

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.synthesis import run_tuples
from infra.settings import get_settings
from tasks.models import RetryParams, RunSummary, TaskSpec
from tasks.progress import emit_progress
from tasks.runtime import build_context, output_dir
from warehouse.store import Warehouse


@task(name="select-for-retry", cache_policy=NO_CACHE)
def select_for_retry_task(params: RetryParams, warehouse: Warehouse) -> list[TaskSpec]:
    rows = warehouse.select_for_retry(
        task_ids=params.task_ids,
        status=params.status.value,
        app=params.app,
        limit=params.limit,
        reject_reason=params.reject_reason.value if params.reject_reason else None,
    )
    return [TaskSpec.model_validate(r) for r in rows]


@flow(name="retry")
def retry_flow(params: RetryParams) -> RunSummary:
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    warehouse = Warehouse(settings.warehouse_path)
    specs = select_for_retry_task(params, warehouse)
    run_id = f"retry-{int(time.time())}"
    ctx = build_context(params.as_synth(), settings, run_id, warehouse)
    emit_progress("tuples", 0, len(specs))
    try:
        outcomes = run_tuples(specs, ctx, params.as_synth(), warehouse, again=True)
    finally:
        ctx.deps.close()
    warehouse.refresh_snapshot(force=True)
    logger.info("retried %d tuple(s)", len(outcomes))
    return RunSummary(
        run_id=run_id,
        outcomes=outcomes,
        seconds=round(time.monotonic() - started, 3),
        warehouse=str(settings.warehouse_path),
        output=str(output_dir(params.as_synth(), settings)),
    )
