"""Read-only SQL for analysts (`cuagym sql`): always against the snapshot, never the live file.

An analyst's query is untrusted text, so two walls stand between it and anything but reading the
snapshot: the statement must be exactly one SELECT (DuckDB's own parser says so — ATTACH, COPY,
EXPORT, SET, PRAGMA, CALL, INSTALL/LOAD, CREATE/INSERT/DROP, CHECKPOINT and a second statement
after a `;` are refused before anything runs), and the snapshot is opened sealed (`SEALED_READER`:
no file system or network access, so read_csv('/etc/passwd'), glob() and `FROM '<path>'` fail too,
and a locked configuration that no statement can loosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from infra.errors import WarehouseError
from warehouse.db import SEALED_READER, connect
from warehouse.store import Warehouse, snapshot_path_for

ALLOWED_STATEMENTS = frozenset({duckdb.StatementType.SELECT})  # DESCRIBE, SHOW, SUMMARIZE parse as SELECT
READ_ONLY_HINT = (
    "`cuagym sql` runs one read-only SELECT over the warehouse snapshot (WITH, DESCRIBE, SHOW and "
    "SUMMARIZE too); it refuses writes, ATTACH, COPY, EXPORT, SET/RESET/PRAGMA, INSTALL/LOAD, CALL, "
    "secrets and anything that reads or writes files"
)


class QueryRefusedError(WarehouseError):
    """An analyst's query tried something other than reading the snapshot."""

    def __init__(self, what: str) -> None:
        super().__init__(f"refused: {what}", hint=READ_ONLY_HINT)


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


def single_select(query: str) -> duckdb.Statement:
    """The one SELECT statement `query` holds; QueryRefusedError for anything else."""
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as exc:
        raise WarehouseError(f"query failed: {exc}", hint="check the SQL") from None
    if not statements:
        raise QueryRefusedError("an empty query")
    kinds = [s.type.name for s in statements]
    if len(statements) > 1:
        raise QueryRefusedError(f"{len(statements)} statements ({', '.join(kinds)}); only one may run")
    if statements[0].type not in ALLOWED_STATEMENTS:
        raise QueryRefusedError(f"a {kinds[0]} statement")
    return statements[0]


def run_query(warehouse_path: Path, query: str) -> QueryResult:
    """Run `query` — one SELECT — on the sealed snapshot of the warehouse; anything else is refused
    (QueryRefusedError) and the warehouse and its snapshot are never written."""
    statement = single_select(query)
    con = connect(ensure_snapshot(warehouse_path), read_only=True, config=SEALED_READER)
    try:
        cur = con.execute(statement)  # the parsed statement itself: what runs is what was checked
        if cur.description is None:
            return QueryResult([], [])
        return QueryResult([d[0] for d in cur.description], cur.fetchall())
    except duckdb.PermissionException as exc:
        raise QueryRefusedError(f"file system access ({exc})") from None
    except duckdb.Error as exc:
        raise WarehouseError(f"query failed: {exc}", hint="check the SQL; " + READ_ONLY_HINT) from None
    finally:
        con.close()
