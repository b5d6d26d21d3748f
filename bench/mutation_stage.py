"""The mutation stage's cost per tuple relative to one co-generation round, in one run.

Synthesises COUNT tuples (default 60) of every app through the flow's core functions (no Prefect, one
worker), with the default mutation settings, and reads every accepted round's timings from the
warehouse: the stage's time (`mutation_s`) against the rest of the same round. Also reports mutants
per tuple and the mutation score. Run: `.venv/bin/python bench/mutation_stage.py [COUNT]`.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from infra.settings import get_settings
from tasks.models import SynthParams
from tasks.plan import plan_batch
from tasks.runtime import build_context, run_id_for
from tasks.synthesize import synthesize_tuple
from warehouse.query import run_query
from warehouse.store import Warehouse


def fresh_settings():
    base = Path(tempfile.mkdtemp(prefix="bench-mutation-"))
    guest = get_settings().guest_venv_path
    os.environ.update(
        CUAGYM_VAR_DIR=str(base / "var"), CUAGYM_OUTPUT_DIR=str(base / "out"), CUAGYM_GUEST_VENV=str(guest)
    )
    get_settings.cache_clear()
    return get_settings()


def main(count: int) -> None:
    settings = fresh_settings()
    params = SynthParams(count=count, seed=11, workers=1, export=False)
    warehouse = Warehouse(settings.warehouse_path)
    run_id = run_id_for(params)
    ctx = build_context(params, settings, run_id, warehouse)
    warehouse.start_run(run_id, backend=params.backend, seed=params.resolved_seed(), git_rev="", params={})
    try:
        for spec in plan_batch(params, settings, run_id, warehouse):
            synthesize_tuple(spec, ctx)
    finally:
        ctx.deps.close()
    warehouse.refresh_snapshot(force=True)
    rows = run_query(
        settings.warehouse_path,
        "SELECT s.apps[1], r.timings, r.mutation_total, r.mutation_killed FROM rounds r JOIN specs s USING (task_id) "
        "WHERE r.mutation_total IS NOT NULL",
    ).rows
    stage = [json.loads(t)["mutation_s"] for _, t, _, _ in rows]
    rest = [json.loads(t)["total_s"] - json.loads(t)["mutation_s"] for _, t, _, _ in rows]
    mutants = sum(r[2] for r in rows)
    killed = sum(r[3] for r in rows)
    table = Table(title=f"mutation stage over {len(rows)} tuples ({count} sampled, all apps, 1 worker)")
    for col in (
        "app",
        "tuples",
        "round without the stage (s)",
        "mutation stage (s)",
        "ratio",
        "mutants/tuple",
    ):
        table.add_column(col, justify="right")
    for app in sorted({r[0] for r in rows}) + ["all"]:
        picked = [i for i, r in enumerate(rows) if app in ("all", r[0])]
        s, o = statistics.mean(stage[i] for i in picked), statistics.mean(rest[i] for i in picked)
        per = statistics.mean(rows[i][2] for i in picked)
        table.add_row(app, str(len(picked)), f"{o:.2f}", f"{s:.2f}", f"{s / o:.2f}×", f"{per:.1f}")
    Console().print(table)
    Console().print(
        f"mutation score: {killed}/{mutants} = {killed / mutants:.1%} (target of the stage cost: ≤ 2.0×)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
