"""Named read-only reports for `cuagym report`: always against the snapshot, never the live file."""

from __future__ import annotations

from pathlib import Path

import duckdb

from infra.errors import WarehouseError
from warehouse.db import SEALED_READER, connect, sql
from warehouse.query import QueryResult, ensure_snapshot


def run_report(warehouse_path: Path, name: str, params: dict) -> QueryResult:
    """Run warehouse/sql/<name>.sql with `params` on the snapshot of `warehouse_path`."""
    con = connect(ensure_snapshot(warehouse_path), read_only=True, config=SEALED_READER)
    try:
        cur = con.execute(sql(name), params)
        return QueryResult([d[0] for d in cur.description], cur.fetchall())
    except duckdb.CatalogException as exc:  # a snapshot taken before the migration that adds the tables
        raise WarehouseError(
            f"the warehouse snapshot lacks what report {name!r} reads: {exc}",
            hint="run `cuagym synth` or `cuagym export` once to migrate the warehouse and refresh its snapshot",
        ) from None
    finally:
        con.close()


def rejection_report(warehouse_path: Path, app: str | None = None) -> QueryResult:
    """Failed rounds and critic rejections grouped by (app, condition, reason), most common first."""
    return run_report(warehouse_path, "report_rejections", {"app": app})


def quality_by_app(warehouse_path: Path, app: str | None) -> QueryResult:
    """Per app: families checked, kill rate, teacher pass rate (from each family's latest run)."""
    return run_report(warehouse_path, "report_quality_apps", {"app": app})


def training_runs(warehouse_path: Path) -> QueryResult:
    """Every training run with its step count, first/last loss and tokens/s, newest start first."""
    return run_report(warehouse_path, "report_training_runs", {})


def training_steps(warehouse_path: Path, run_id: str) -> QueryResult:
    """The logged steps of one training run (GSPO: one per iteration), in step order."""
    return run_report(warehouse_path, "training_steps", {"run_id": run_id})


def training_evals(warehouse_path: Path, run_id: str) -> QueryResult:
    """The held-out evaluations of one training run, in step order (the first: before training)."""
    return run_report(warehouse_path, "training_evals", {"run_id": run_id})


def quality_report(warehouse_path: Path, app: str | None = None) -> QueryResult:
    """Each family's latest quality run (view quality_by_family), weakest kill rate first."""
    return run_report(warehouse_path, "report_quality", {"app": app})


def contamination_report(warehouse_path: Path, app: str | None = None) -> QueryResult:
    """Checked and contaminated tuples per app and family (view contamination_by_family)."""
    return run_report(warehouse_path, "report_contamination", {"app": app})


def contaminated_tuples(warehouse_path: Path, app: str | None = None) -> QueryResult:
    """Every contaminated tuple with its closest benchmark task and scores, closest first."""
    return run_report(warehouse_path, "report_contaminated_tuples", {"app": app})


def llm_report(warehouse_path: Path, role: str | None = None) -> QueryResult:
    """Calls, tokens (prompt-cache hits apart), cost and latency p50/p95 per role and model."""
    return run_report(warehouse_path, "report_llm", {"role": role})


def llm_run_report(warehouse_path: Path, run_id: str) -> QueryResult:
    """The columns of llm_report over one run's calls."""
    return run_report(warehouse_path, "report_llm_run", {"run": run_id})
