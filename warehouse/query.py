"""Read-only SQL for analysts (`cuagym sql`): always against the snapshot, never the live file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from infra.errors import WarehouseError
from warehouse.db import connect
from warehouse.store import Warehouse, snapshot_path_for


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]


def ensure_snapshot(warehouse_path: Path) -> Path:
    """The snapshot of `warehouse_path`, made now if the writer has not made one yet."""
    snapshot = snapshot_path_for(warehouse_path.resolve())
    if snapshot.exists():
        return snapshot
    if not warehouse_path.exists():
        raise WarehouseError(
            f"no warehouse at {warehouse_path}", hint="run `cuagym synth` (or `make demo`) first"
        )
    Warehouse(warehouse_path).refresh_snapshot(force=True)
    return snapshot


def run_query(warehouse_path: Path, query: str) -> QueryResult:
    """Run `query` read-only against the warehouse snapshot; writes fail with a clear error."""
    con = connect(ensure_snapshot(warehouse_path), read_only=True)
    try:
        cur = con.execute(query)
        if cur.description is None:
            return QueryResult([], [])
        return QueryResult([d[0] for d in cur.description], cur.fetchall())
    except duckdb.Error as exc:
        hint = "the warehouse is read-only here" if "read-only" in str(exc).lower() else "check the SQL"
        raise WarehouseError(f"query failed: {exc}", hint=hint) from None
    finally:
        con.close()
