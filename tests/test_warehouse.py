"""The warehouse on real DuckDB files: schema and migrations, the snapshot readers use, and readers
that never block the single writer (DESIGN.md §4)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from infra.errors import WarehouseError, WarehouseLockedError
from warehouse.db import MIGRATIONS, VIEWS, connect, migrate
from warehouse.query import run_query
from warehouse.store import SNAPSHOT_EVERY_S, Warehouse

LATEST = max(int(p.name.split("_", 1)[0]) for p in MIGRATIONS.glob("*.sql"))
VIEW_NAMES = re.findall(r"CREATE OR REPLACE VIEW (\w+)", VIEWS.read_text())


def start(warehouse: Warehouse, run_id: str, seed: int = 0) -> None:
    warehouse.start_run(run_id, backend="procedural", seed=seed, git_rev="test", params={"count": 1})


def test_a_fresh_file_gets_every_migration_and_every_view(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    try:
        assert migrate(con) == LATEST
        versions = [
            row[0] for row in con.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
        ]
        assert versions == list(range(1, LATEST + 1))
        assert len(VIEW_NAMES) >= 9
        for view in VIEW_NAMES:  # every view compiles against the migrated tables
            con.execute(f"SELECT * FROM {view} LIMIT 0")
        assert migrate(con) == LATEST  # idempotent: nothing re-applied
        assert con.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == LATEST
    finally:
        con.close()


def test_an_old_file_is_upgraded_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP)")
    con.execute((MIGRATIONS / "001_init.sql").read_text())
    con.execute("INSERT INTO schema_migrations VALUES (1, now())")
    con.execute(
        "INSERT INTO runs (run_id, started_at, status, backend, seed, git_rev, params) "
        "VALUES ('run-old', now(), 'finished', 'procedural', 1, 'x', '{}')"
    )
    con.close()
    warehouse = Warehouse(path)
    start(warehouse, "run-new")  # the first write migrates the file
    con = connect(path, read_only=True)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] == LATEST
        assert {r[0] for r in con.execute("SELECT run_id FROM runs").fetchall()} == {"run-old", "run-new"}
    finally:
        con.close()


def test_a_failed_transaction_leaves_nothing_behind(tmp_path):
    warehouse = Warehouse(tmp_path / "w.duckdb")
    start(warehouse, "run-a")
    with pytest.raises(RuntimeError), warehouse._write() as con:
        con.execute(
            "INSERT INTO runs (run_id, started_at, status, backend, seed, git_rev, params) "
            "VALUES ('run-b', now(), 'running', 'procedural', 2, 'x', '{}')"
        )
        raise RuntimeError("the step failed mid-way")
    rows = run_query(tmp_path / "w.duckdb", "SELECT run_id FROM runs ORDER BY 1").rows
    assert rows == [("run-a",)]


def test_the_snapshot_follows_the_writer_and_is_read_only(tmp_path):
    path = tmp_path / "w.duckdb"
    warehouse = Warehouse(path)
    start(warehouse, "run-1")
    assert warehouse.refresh_snapshot(force=True) == warehouse.snapshot_path
    assert run_query(path, "SELECT count(*) FROM runs").rows == [(1,)]
    start(warehouse, "run-2")
    if time.monotonic() - warehouse._last_snapshot < SNAPSHOT_EVERY_S:
        assert warehouse.refresh_snapshot() is None  # throttled: at most one copy per interval
    assert run_query(path, "SELECT count(*) FROM runs").rows == [(1,)]  # readers see the last snapshot
    warehouse.refresh_snapshot(force=True)
    assert run_query(path, "SELECT count(*) FROM runs").rows == [(2,)]
    with pytest.raises(WarehouseError, match="read-only"):
        run_query(path, "INSERT INTO runs (run_id) VALUES ('sneaky')")


READER = """
import sys, time
from pathlib import Path
from warehouse.query import run_query
path, deadline, seen = Path(sys.argv[1]), time.monotonic() + float(sys.argv[2]), set()
while time.monotonic() < deadline:
    seen.add(run_query(path, "SELECT count(*) FROM runs").rows[0][0])
print(max(seen), len(seen))
"""


def test_readers_in_other_processes_never_block_the_writer(tmp_path):
    path = tmp_path / "w.duckdb"
    warehouse = Warehouse(path)
    start(warehouse, "run-0")
    warehouse.refresh_snapshot(force=True)
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(READER), str(path), "6"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    started = time.monotonic()
    writes = 0
    while time.monotonic() - started < 4:
        writes += 1
        start(warehouse, f"run-{writes}")  # each a whole transaction on the live file
        warehouse.refresh_snapshot(force=True)
    for reader in readers:
        out, err = reader.communicate(timeout=60)
        assert reader.returncode == 0, err[-2000:]
        latest, distinct = map(int, out.split())
        assert distinct >= 2 and latest > 1, "the reader should have seen the snapshot move on"
    assert writes >= 10, "the writer was held up"
    assert run_query(path, "SELECT count(*) FROM runs").rows == [(writes + 1,)]


HOLDER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1])
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_second_writer_waits_then_gets_a_clear_error(tmp_path):
    path = tmp_path / "w.duckdb"
    Warehouse(path).refresh_snapshot(force=True)  # creates and migrates the file
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(HOLDER), str(path), "30"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(WarehouseLockedError, match="locked by another process"):
            connect(path, wait_s=0.5)
        assert run_query(path, "SELECT count(*) FROM runs").rows == [(0,)]  # the snapshot still answers
    finally:
        holder.kill()
        holder.wait()


def test_querying_a_missing_warehouse_says_what_to_run(tmp_path):
    with pytest.raises(WarehouseError, match="no warehouse"):
        run_query(Path(tmp_path / "nothing.duckdb"), "SELECT 1")
