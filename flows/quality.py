"""The quality flow: every selected family over many seeds — endpoints, near misses and the mutation
stage in the sandbox, GUI teachers on real desktops for the first seeds — written to the warehouse
(`quality`, view `quality_by_family`). The unit suite checks seed 0 and one teacher per app; the
per-family sweeps run here, nightly after synthesis (prefect.yaml).

A family is one Prefect task run (coarse: its seeds and mutants live inside it); at most `workers`
run at once. Every seed's row is in the warehouse as soon as it is checked.
"""

from __future__ import annotations

import threading
import time

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed

from infra.settings import get_settings
from skills.kit import Family, load_families
from tasks.models import FamilyQuality, QualityParams, QualitySummary, SeedQuality
from tasks.progress import emit_progress
from tasks.quality.run import (
    QualityContext,
    build_context,
    check_family,
    quality_run_id,
    select_quality_families,
)
from warehouse.store import Warehouse


@task(name="family-quality", cache_policy=NO_CACHE)
def family_quality_task(family: Family, params: QualityParams, ctx: QualityContext) -> FamilyQuality:
    return check_family(family, params, ctx)


@flow(name="quality")
def quality_flow(params: QualityParams) -> QualitySummary:
    logger = get_run_logger()
    settings = get_settings()
    started = time.monotonic()
    warehouse = Warehouse(settings.warehouse_path)
    families = select_quality_families(load_families(settings.skills_dir), params)
    run_id = quality_run_id()
    ctx = build_context(params, settings, families, run_id, warehouse)
    ctx.on_seed = _progress(len(families) * params.seeds)
    try:
        results = _in_window(families, params, ctx)
    finally:
        ctx.close()
    warehouse.refresh_snapshot(force=True)
    summary = QualitySummary(
        run_id=run_id,
        families=sorted(results, key=lambda r: r.family),
        seconds=round(time.monotonic() - started, 3),
        warehouse=str(settings.warehouse_path),
    )
    logger.info(
        "%s: %d families x %d seeds, %d with problems, in %.1f s",
        run_id,
        len(families),
        params.seeds,
        len(summary.failed()),
        summary.seconds,
    )
    return summary


def _in_window(families: list[Family], params: QualityParams, ctx: QualityContext) -> list[FamilyQuality]:
    """At most `params.workers` families in flight."""
    waiting, running, done = list(reversed(families)), {}, []
    while waiting or running:
        while waiting and len(running) < params.workers:
            family = waiting.pop()
            running[family_quality_task.submit(family, params, ctx)] = family
        for future in as_completed(list(running)):
            running.pop(future)
            done.append(future.result())
            ctx.warehouse.refresh_snapshot()
            break
    return done


def _progress(total: int):
    """A per-seed progress event (seeds finish in several threads at once)."""
    lock, count = threading.Lock(), [0]

    def on_seed(row: SeedQuality) -> None:
        with lock:
            count[0] += 1
            status = "ok" if not row.problems() else "problems"
            emit_progress("seeds", count[0], total, task_id=f"{row.family}@{row.seed}", status=status)

    return on_seed
