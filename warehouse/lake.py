"""A DuckLake that several machines' warehouses sync into: the multi-writer warehouse of a fleet.

Each machine keeps its single-writer DuckDB warehouse (DESIGN.md §4). `sync_to_lake` copies it into
a DuckLake — a catalog in PostgreSQL (or a DuckDB file, for one machine) and Parquet data files in
object storage or a folder — where writers on many machines commit concurrently: DuckLake keeps
each commit a snapshot in the catalog's transactions, and a sync that loses a race to another
machine's commit is retried. Analysts query the lake from any machine (`connect_lake`).

What a sync writes, per warehouse table: the rows that are new or changed since the lake last saw
them (local rows EXCEPT lake rows). A table with a primary key has the lake's older versions of those
keys deleted first, so a tuple that moved from `verified` to `exported` is one row in the lake, not
two; a table without one is append-only. New tables and new columns (a newer migration on one
machine) are added to the lake as they come. Two machines' rows with the same key (the same tuple
synthesised on both, from the same seed) are one row in the lake: the last sync's. The source is the warehouse's snapshot, so a sync
never blocks a run that is writing.

The extensions come from PyPI wheels (warehouse/extensions.py): ducklake, postgres_scanner and, for
an s3:// data path, httpfs with the AWS_* variables as for `--out s3://`.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb

from infra.errors import ConfigError, WarehouseError
from warehouse.extensions import load_extensions
from warehouse.query import ensure_snapshot
from warehouse.s3 import add_s3_secret

log = logging.getLogger(__name__)

LAKE = "lake"
SOURCE = "src"
_ATTEMPTS = 8  # commits that lost a race to another writer, retried with backoff
_CATALOG_DB = "lake_catalog"
# The local file's own bookkeeping, not data: every machine has the same migration versions (applied
# at other times), so syncing it would make each machine's sync replace the others' rows.
LOCAL_ONLY = frozenset({"schema_migrations"})
_ATTACH_LOCK = 0x637561676C616B65  # "cuaglake": the advisory lock key of a lake's first ATTACH


@dataclass(frozen=True)
class LakeConfig:
    """Where the lake is: `catalog` is a postgresql:// URL (many writers) or a path ending in .ducklake
    (one machine); `data_path` is s3://bucket/prefix/ or a folder."""

    catalog: str
    data_path: str

    def attach_sql(self) -> str:
        if self.catalog.startswith(("postgresql://", "postgres://")):
            target = f"ducklake:postgres:{self.catalog}"
        elif self.catalog.endswith(".ducklake"):
            target = f"ducklake:{Path(self.catalog).resolve()}"
        else:
            raise ConfigError(
                f"{self.catalog!r} is not a lake catalog",
                hint="pass a postgresql://user:password@host:port/db URL, or a path ending in .ducklake",
            )
        data = self.data_path if self.data_path.startswith("s3://") else str(Path(self.data_path).resolve())
        return f"ATTACH {_literal(target)} AS {LAKE} (DATA_PATH {_literal(data.rstrip('/') + '/')})"


@dataclass(frozen=True)
class TableSync:
    table: str
    written: int  # rows new or changed, now in the lake
    replaced: int  # older versions of those rows the lake held, deleted


def connect_lake(config: LakeConfig) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the lake attached as `lake` (and used by default).

    Example:

        con = connect_lake(LakeConfig("postgresql://lake:…@db:5432/lake", "s3://cuagym-lake/"))
        con.sql("SELECT status, count(*) FROM tuples GROUP BY ALL")
    """
    con = duckdb.connect()
    names = ["ducklake"]
    if config.catalog.startswith(("postgresql://", "postgres://")):
        names.append("postgres_scanner")
    if config.data_path.startswith("s3://"):
        names.append("httpfs")
    load_extensions(con, *names)
    if "httpfs" in names:
        add_s3_secret(con)
    try:
        with _catalog_lock(con, config):
            con.execute(config.attach_sql())
    except duckdb.Error as exc:
        con.close()
        raise WarehouseError(
            f"cannot open the lake at {config.catalog} (data {config.data_path}): {exc}",
            hint="check that the catalog database exists and accepts these credentials, and the bucket exists",
        ) from None
    con.execute(f"USE {LAKE}")
    return con


@contextlib.contextmanager
def _catalog_lock(con: duckdb.DuckDBPyConnection, config: LakeConfig) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock while the lake is attached: the first ATTACH of an empty
    catalog creates DuckLake's metadata tables, and two machines doing that at once collide (one
    fails on PostgreSQL's duplicate type names). Seen with four processes attaching a fresh catalog."""
    if not config.catalog.startswith(("postgresql://", "postgres://")):
        yield
        return
    con.execute(f"ATTACH {_literal(config.catalog)} AS {_CATALOG_DB} (TYPE postgres)")
    con.execute(f"CALL postgres_execute('{_CATALOG_DB}', 'SELECT pg_advisory_lock({_ATTACH_LOCK})')")
    try:
        yield
    finally:
        with contextlib.suppress(duckdb.Error):
            con.execute(
                f"CALL postgres_execute('{_CATALOG_DB}', 'SELECT pg_advisory_unlock({_ATTACH_LOCK})')"
            )
        con.execute(f"DETACH {_CATALOG_DB}")


def sync_to_lake(warehouse_path: Path, config: LakeConfig) -> list[TableSync]:
    """Copy what is new or changed in the warehouse (its snapshot) into the lake, in one commit."""
    snapshot = ensure_snapshot(warehouse_path)
    for attempt in range(1, _ATTEMPTS + 1):
        con = connect_lake(config)
        try:
            con.execute(f"ATTACH {_literal(str(snapshot))} AS {SOURCE} (READ_ONLY)")
            con.execute("BEGIN TRANSACTION")
            synced = [_sync_table(con, table) for table in _tables(con)]
            con.execute("COMMIT")
            return synced
        except duckdb.TransactionException as exc:  # another machine committed to the same tables first
            with contextlib.suppress(duckdb.Error):
                con.execute("ROLLBACK")
            if attempt == _ATTEMPTS:
                raise WarehouseError(
                    f"the lake sync lost {attempt} races to other writers: {exc}",
                    hint="run it again; many machines syncing the same second take turns",
                ) from None
            pause = min(5.0, 0.2 * 2**attempt) * random.uniform(0.5, 1.0)
            log.info("lake commit conflicted (%s); retrying in %.1f s", exc, pause)
            time.sleep(pause)
        finally:
            con.close()
    raise AssertionError("unreachable")


def _tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' ORDER BY 1",
        [SOURCE],
    ).fetchall()
    return [name for (name,) in rows if name not in LOCAL_ONLY]


def _columns(con: duckdb.DuckDBPyConnection, database: str, table: str) -> dict[str, str]:
    rows = con.execute(
        "SELECT column_name, data_type FROM duckdb_columns() "
        "WHERE database_name = ? AND schema_name = 'main' AND table_name = ? ORDER BY column_index",
        [database, table],
    ).fetchall()
    return dict(rows)


def _primary_key(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(
        "SELECT constraint_column_names FROM duckdb_constraints() "
        "WHERE database_name = ? AND schema_name = 'main' AND table_name = ? AND constraint_type = 'PRIMARY KEY'",
        [SOURCE, table],
    ).fetchall()
    return list(rows[0][0]) if rows else []


def _sync_table(con: duckdb.DuckDBPyConnection, table: str) -> TableSync:
    source_columns = _columns(con, SOURCE, table)
    lake_columns = _columns(con, LAKE, table)
    name = _ident(table)
    if not lake_columns:  # DuckLake keeps no constraints: the lake table is the columns alone
        con.execute(f"CREATE TABLE {LAKE}.{name} AS SELECT * FROM {SOURCE}.{name} LIMIT 0")
    for column, data_type in source_columns.items():
        if lake_columns and column not in lake_columns:  # a newer migration on this machine
            con.execute(f"ALTER TABLE {LAKE}.{name} ADD COLUMN {_ident(column)} {data_type}")
    columns = ", ".join(_ident(c) for c in source_columns)
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE changed AS "
        f"SELECT {columns} FROM {SOURCE}.{name} EXCEPT SELECT {columns} FROM {LAKE}.{name}"
    )
    written = con.execute("SELECT count(*) FROM changed").fetchone()[0]
    replaced = 0
    key = _primary_key(con, table)
    if written and key:
        keys = ", ".join(_ident(c) for c in key)
        replaced = con.execute(
            f"DELETE FROM {LAKE}.{name} WHERE ({keys}) IN (SELECT ({keys}) FROM changed)"
        ).fetchone()[0]
    if written:
        con.execute(f"INSERT INTO {LAKE}.{name} ({columns}) SELECT {columns} FROM changed")
    return TableSync(table=table, written=int(written), replaced=int(replaced))


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
