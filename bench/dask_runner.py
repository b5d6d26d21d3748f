"""Tuples/s of the tuple stage with the local runner (1 and 2 workers) and the Dask runner (a
2-worker LocalCluster the flow starts), as ratios of one run, and Prefect's share of that stage.

Each configuration synthesises the same batch (same seed, all apps, procedural backend, mutation
stage on, no teacher stage) through the real flow, from an empty warehouse, in one process (the
ephemeral Prefect API is started first, outside the timings). The tuple stage is timed from the
flow's progress events: from its first event (0 done) to its last; for Dask, from the moment the
cluster is up (its start-up is reported on its own). Prefect's share is what the stage's worker
slots spent outside the tuple bodies:

    1 - sum(seconds inside each tuple's co-generation) / (workers x tuple-stage wall time)

— task-engine state changes and API calls, Dask scheduling and pickling, the flow's own per-tuple
bookkeeping (opening attempts, replaying journals, exporting) and the tail where fewer tuples than
workers are left. Run: `.venv/bin/python bench/dask_runner.py [COUNT]` (default 100).
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.settings import get_settings
from tasks.models import SynthParams

CONFIGS = (("local", 1), ("local", 2), ("dask", 2))


@dataclass
class StageClock:
    """Times the tuple stage from the flow's log records (progress events, the Dask runner's)."""

    first: float | None = None
    last: float | None = None
    cluster_up: float | None = None
    seen: list = field(default_factory=list)

    def handler(self) -> logging.Handler:
        clock = self

        class _Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                event = getattr(record, "cuagym_progress", None)
                if event and event.get("kind") == "tuples":
                    clock.first = clock.first or record.created
                    clock.last = record.created
                elif record.name == "flows.dask_runner" and record.getMessage().startswith("Dask:"):
                    clock.cluster_up = record.created

        return _Handler(level=logging.INFO)


def _fresh_dirs() -> None:
    base = Path(tempfile.mkdtemp(prefix="bench-dask-"))
    guest = get_settings().guest_venv_path
    os.environ.update(
        CUAGYM_VAR_DIR=str(base / "var"), CUAGYM_OUTPUT_DIR=str(base / "out"), CUAGYM_GUEST_VENV=str(guest)
    )
    get_settings.cache_clear()


def run(runner: str, workers: int, count: int) -> dict:
    from flows.synthesis import synthesis_flow

    _fresh_dirs()
    clock = StageClock()
    handler = clock.handler()
    loggers = [logging.getLogger("tasks.progress"), logging.getLogger("flows.dask_runner")]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    try:
        started = time.perf_counter()
        summary = synthesis_flow(
            SynthParams(count=count, seed=7, workers=workers, runner=runner, teacher_k=0)
        )
        flow_s = time.perf_counter() - started
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    begin = clock.cluster_up or clock.first
    stage_s = clock.last - begin
    bodies = sum(o.seconds for o in summary.outcomes if not o.resumed)
    return {
        "tuples": len(summary.outcomes),
        "verified": sum(o.status.value == "exported" for o in summary.outcomes),
        "flow_s": flow_s,
        "stage_s": stage_s,
        "cluster_s": (clock.cluster_up - clock.first) if clock.cluster_up else 0.0,
        "tuples_per_s": len(summary.outcomes) / stage_s,
        "prefect_share": 1 - bodies / (workers * stage_s),
    }


def main(count: int = 100) -> None:
    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "WARNING")
    from prefect import flow

    @flow
    def warm() -> None:  # start the ephemeral API once, outside the timings
        return None

    warm()
    results = {(runner, workers): run(runner, workers, count) for runner, workers in CONFIGS}
    base = results[("local", 1)]["tuples_per_s"]
    table = Table(title=f"{count} tuples, procedural backend, mutation stage on, no teacher stage")
    for col in (
        "runner",
        "workers",
        "verified",
        "tuple stage s",
        "tuples/s",
        "vs local ×1",
        "Prefect share",
        "cluster start s",
        "whole flow s",
    ):
        table.add_column(col, justify="right")
    for (runner, workers), r in results.items():
        table.add_row(
            runner,
            str(workers),
            f"{r['verified']}/{r['tuples']}",
            f"{r['stage_s']:.1f}",
            f"{r['tuples_per_s']:.3f}",
            f"{r['tuples_per_s'] / base:.2f}×",
            f"{r['prefect_share']:.1%}",
            f"{r['cluster_s']:.1f}" if runner == "dask" else "-",
            f"{r['flow_s']:.1f}",
        )
    console = Console(width=150)
    console.print(table)
    dask, local2 = results[("dask", 2)], results[("local", 2)]
    console.print(f"Dask ×2 vs local ×2: {dask['tuples_per_s'] / local2['tuples_per_s']:.2f}× tuples/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
