"""Wall time per co-generation stage on the local sandbox, and Prefect's share of a run.

For 1 and 2 workers, the same batch is synthesised twice from an empty warehouse: once by calling
the flow's core functions directly, in the same order, tuples from a thread pool (no Prefect), once
through the Prefect flow (the
ephemeral API is started before timing; its start-up cost is reported on its own line), each
REPEATS times interleaved, keeping the minimum. Prefect's share = (flow − plain) / flow. Per-stage means come from the rounds' timings in the
warehouse. Run: `.venv/bin/python bench/cogen_stages.py [COUNT]`.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.settings import get_settings
from tasks.coverage import coverage, coverage_chart
from tasks.models import SynthParams
from tasks.plan import plan_batch
from tasks.quality import check_warehouse
from tasks.runtime import build_context, output_dir, run_id_for
from tasks.synthesize import synthesize_tuple
from warehouse.query import run_query
from warehouse.store import Warehouse

REPEATS = 3
STAGES = (
    "generate_s",
    "provision_s",
    "setup_s",
    "patch_s",
    "discriminate_s",
    "scan_s",
    "reward_s",
    "mutation_s",
    "total_s",
)


def _fresh_settings():
    base = Path(tempfile.mkdtemp(prefix="bench-cogen-"))
    guest = get_settings().guest_venv_path
    os.environ.update(
        CUAGYM_VAR_DIR=str(base / "var"), CUAGYM_OUTPUT_DIR=str(base / "out"), CUAGYM_GUEST_VENV=str(guest)
    )
    get_settings.cache_clear()
    return get_settings()


def plain_run(params: SynthParams) -> tuple[float, Path]:
    """The flow's steps, same core functions, same order, without Prefect."""
    settings = _fresh_settings()
    start = time.perf_counter()
    warehouse = Warehouse(settings.warehouse_path)
    run_id = run_id_for(params)
    ctx = build_context(params, settings, run_id, warehouse)
    warehouse.start_run(run_id, backend=params.backend, seed=params.resolved_seed(), git_rev="", params={})
    specs = plan_batch(params, settings, run_id, warehouse)

    def one(spec):
        outcome = synthesize_tuple(spec, ctx)
        warehouse.refresh_snapshot()  # the flow refreshes readers' snapshot as tuples finish, too
        return outcome

    with ThreadPoolExecutor(params.workers) as pool:
        list(pool.map(one, specs))
    ctx.deps.close()
    out = output_dir(params, settings)
    warehouse.export_parquet(out / "tuples.parquet")
    check_warehouse(warehouse, run_id)
    warehouse.refresh_snapshot(force=True)
    coverage_chart(coverage(warehouse.path, run_id), out / "reports" / f"{run_id}-coverage.png")
    warehouse.finish_run(run_id, status="finished", summary={})
    warehouse.refresh_snapshot(force=True)
    return time.perf_counter() - start, settings.warehouse_path


def flow_run(params: SynthParams) -> float:
    from flows.synthesis import synthesis_flow

    _fresh_settings()
    start = time.perf_counter()
    synthesis_flow(params)
    return time.perf_counter() - start


def stage_means(warehouse: Path) -> dict[str, float]:
    rows = run_query(warehouse, "SELECT timings FROM rounds").rows
    timings = [json.loads(r[0]) for r in rows]
    return {s: statistics.mean(t[s] for t in timings) for s in STAGES}


def main(count: int = 20) -> None:
    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "WARNING")
    from prefect import flow

    @flow
    def warm() -> None:  # start the ephemeral API once, outside the timings
        return None

    t = time.perf_counter()
    warm()
    startup = time.perf_counter() - t
    console = Console()
    runs = Table(title=f"{count} tuples, procedural backend, local sandbox")
    for col in ("workers", "plain s", "flow s", "Prefect share", "s/tuple (flow)"):
        runs.add_column(col, justify="right")
    plain_run(SynthParams(count=4, seed=98, workers=1))  # warm: imports, family loading, page cache
    stages = None
    for workers in (1, 2):
        params = SynthParams(count=count, seed=99, workers=workers)
        plains, flows_ = [], []
        for _ in range(REPEATS):  # interleaved; the minimum is the least disturbed by other load
            plain, warehouse = plain_run(params)
            plains.append(plain)
            flows_.append(flow_run(params))
        stages = stages or stage_means(warehouse)
        plain, flowed = min(plains), min(flows_)
        runs.add_row(
            str(workers),
            f"{plain:.2f}",
            f"{flowed:.2f}",
            f"{(flowed - plain) / flowed:.1%}",
            f"{flowed / count:.2f}",
        )
    console.print(runs)
    per_stage = Table(title="mean seconds per co-generation round, by stage (1 worker)")
    per_stage.add_column("stage")
    per_stage.add_column("seconds", justify="right")
    for stage, value in stages.items():
        per_stage.add_row(stage.removesuffix("_s"), f"{value:.3f}")
    console.print(per_stage)
    console.print(
        f"Prefect ephemeral API start-up (once per process, not in the shares above): {startup:.1f} s"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
