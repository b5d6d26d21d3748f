"""The retry flow: re-run selected finished tuples (by id, status, reject reason, app) as new
attempts. An operator fills the parameters in the Prefect UI (the `retry` deployment) or runs
`cuagym retry`. Old attempts and their reviews stay in the warehouse.

A retry run is a run of its own (a `runs` row of kind `retry`); each tuple it re-attempts keeps the
run that sampled it, and the attempt records the retry run. A retry that matches nothing ends
Completed with a count of 0 — in its result and in a markdown artifact on the flow run's page.
"""

from __future__ import annotations

import time
import uuid

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.synthesis import decontamination_index_task, run_tuples
from infra.settings import get_settings
from tasks.models import RetryParams, RunSummary, TaskSpec, TupleStatus
from tasks.progress import emit_progress
from tasks.runtime import build_context, git_revision, output_dir
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


def retry_run_id() -> str:
    # seconds alone collide when two retries start in the same second (from the UI and the CLI)
    return f"retry-{int(time.time())}-{uuid.uuid4().hex[:6]}"


def retry_report(run_id: str, params: RetryParams, summary: dict) -> str:
    """The markdown shown on the flow run's page: what was selected and how the attempts ended."""
    selection = (
        f"task ids {', '.join(params.task_ids)}"
        if params.task_ids
        else f"status={params.status.value}, reject_reason={params.reject_reason or 'any'}, "
        f"app={params.app or 'any'}, limit={params.limit}"
    )
    lines = [f"# Retry run `{run_id}`", "", f"Selection: {selection}", ""]
    if not summary["tuples"]:
        lines.append("**No tuple matched the selection: nothing was retried (0 tuples).**")
    lines += ["| matched | verified | rejected |", "|---:|---:|---:|"]
    lines.append(f"| {summary['tuples']} | {summary['verified']} | {summary['rejected']} |")
    return "\n".join(lines)


@flow(name="retry")
def retry_flow(params: RetryParams) -> RunSummary:
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    warehouse = Warehouse(settings.warehouse_path)
    run_id = retry_run_id()
    warehouse.start_run(
        run_id,
        kind="retry",
        backend=params.backend,
        seed=0,
        git_rev=git_revision(),
        params=params.model_dump(mode="json"),
    )
    specs = select_for_retry_task(params, warehouse)
    emit_progress("tuples", 0, len(specs))
    outcomes = []
    if specs:  # nothing matched: no hub, no agents to start
        decontam = decontamination_index_task(params.as_synth())
        ctx = build_context(params.as_synth(), settings, run_id, warehouse)
        ctx.decontam = decontam  # a retried tuple is screened before export as a first attempt is
        if decontam is not None:
            decontam.prime(spec.instruction for spec in specs)
        try:
            outcomes = run_tuples(specs, ctx, params.as_synth(), warehouse, again=True)
        finally:
            ctx.deps.close()
    summary = RunSummary(
        run_id=run_id,
        outcomes=outcomes,
        seconds=round(time.monotonic() - started, 3),
        warehouse=str(settings.warehouse_path),
        output=str(output_dir(params.as_synth(), settings)),
    )
    counts = {
        "tuples": len(outcomes),
        "verified": summary.count(TupleStatus.VERIFIED) + summary.count(TupleStatus.EXPORTED),
        "rejected": summary.count(TupleStatus.REJECTED),
        "seconds": summary.seconds,
    }
    warehouse.finish_run(run_id, status="finished", summary=counts)
    warehouse.refresh_snapshot(force=True)
    create_markdown_artifact(
        key="retry-summary",
        markdown=retry_report(run_id, params, counts),
        description=f"{counts['tuples']} tuple(s) retried",
    )
    logger.info(
        "retry run %s: retried %d tuple(s), %d verified", run_id, counts["tuples"], counts["verified"]
    )
    return summary
