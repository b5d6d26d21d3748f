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


def _rollout(
    tuple_id: str, repeat: int, reward: float | None, *, family="calc.a", app="calc", steps=3
) -> dict:
    return {
        "rollout_id": f"{tuple_id}__r{repeat}",
        "model": "m",
        "tuple_id": tuple_id,
        "family": family,
        "app": app,
        "repeat": repeat,
        "run_id": "rollouts-1",
        "policy": "llm",
        "coordinate_space": "relative",
        "reward": reward,
        "reward_error": None if reward is not None else "no score",
        "terminated": reward is not None,
        "status": "success" if reward == 1.0 else None,
        "model_steps": steps,
        "calls": steps,
        "failed_calls": 1,
        "seconds": 1.0,
        "overhead_s": 0.05,
        "judge_success": None,
        "judge_reason": None,
        "reward_judge_disagree": None,
        "dataset": "d",
    }


def _steps(n: int) -> list[dict]:
    return [
        {"step": i, "model_step": i, "action": "left_click", "ok": i > 0, "error": None, "x": 1, "y": 2}
        for i in range(n)
    ]


def test_rollout_views_count_success_pass_at_k_and_null_rewards(tmp_path):
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.start_rollout_run("rollouts-1", {"k": 3})
    # tuple a: 1 of 3 solved; tuple b (another family and app): none solved, one unscored
    for repeat, reward in enumerate([1.0, 0.5, 0.0]):
        warehouse.save_rollout(_rollout("a", repeat, reward), _steps(3))
    for repeat, reward in enumerate([0.0, None, 0.25]):
        warehouse.save_rollout(_rollout("b", repeat, reward, family="chat.b", app="chat", steps=5), _steps(5))
    warehouse.save_rollout(_rollout("a", 2, 0.0, steps=2), _steps(2))  # saved again: replaced, not added
    path = tmp_path / "w.duckdb"
    by_tuple = run_query(
        path, "SELECT tuple_id, k, successes, pass_at_k, null_rewards FROM rollout_by_tuple ORDER BY 1"
    )
    assert by_tuple.rows == [("a", 3, 1, 1, 0), ("b", 3, 0, 0, 1)]
    (a,) = run_query(
        path, "SELECT success_rate, mean_reward FROM rollout_by_family WHERE family = 'calc.a'"
    ).rows
    assert a == (pytest.approx(1 / 3), pytest.approx(0.5))
    apps = run_query(path, "SELECT app, pass_at_k FROM rollout_by_app ORDER BY 1").rows
    assert apps == [("calc", 1.0), ("chat", 0.0)]
    buckets = dict(run_query(path, "SELECT bucket, rollouts FROM rollout_rewards").rows)
    assert buckets == {"1.0": 1, "0.0": 2, "0.4-0.6": 1, "0.2-0.4": 1, "null": 1}
    assert run_query(path, "SELECT null_rate FROM rollout_null_rewards").rows == [(pytest.approx(1 / 6),)]
    assert run_query(path, "SELECT count(*) FROM rollout_steps WHERE rollout_id = 'a__r2'").rows == [(2,)]
    (lengths,) = run_query(
        path, "SELECT max_steps, terminated_share FROM rollout_steps_per_episode WHERE family = 'chat.b'"
    ).rows
    assert lengths == (5, pytest.approx(2 / 3))


def test_a_second_rollout_run_adds_its_rows_and_keeps_the_first_runs(tmp_path):
    # The first run solved a__r0; a second run (another dataset, same rollout id and model) failed it.
    # Before rows were keyed by run, the second save replaced the first and its 1.0 was gone.
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.start_rollout_run("rollouts-1", {"k": 1})
    warehouse.save_rollout(_rollout("a", 0, 1.0), _steps(3))
    warehouse.start_rollout_run("rollouts-2", {"k": 1})
    second = _rollout("a", 0, 0.0, steps=2) | {"run_id": "rollouts-2", "dataset": "d2"}
    warehouse.save_rollout(second, _steps(2))
    path = tmp_path / "w.duckdb"
    rows = run_query(path, "SELECT run_id, reward FROM rollouts ORDER BY run_id").rows
    assert rows == [("rollouts-1", 1.0), ("rollouts-2", 0.0)]
    assert run_query(path, "SELECT k, successes, pass_at_k FROM rollout_by_tuple").rows == [(2, 1, 1)]
    steps = run_query(path, "SELECT run_id, count(*) FROM rollout_steps GROUP BY 1 ORDER BY 1").rows
    assert steps == [("rollouts-1", 3), ("rollouts-2", 2)]
    # each dataset knows its own episodes, so a resume of either run skips only what it wrote
    assert warehouse.done_rollouts("m", "d") == {"a__r0"} == warehouse.done_rollouts("m", "d2")
    assert warehouse.done_rollouts("m", "elsewhere") == set()


def test_the_rollouts_migration_keeps_the_rows_written_before_it(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP)")
    for migration in sorted(MIGRATIONS.glob("*.sql")):
        number = int(migration.name.split("_", 1)[0])
        if number >= 11:  # 011 keys rollouts by run
            break
        con.execute(migration.read_text())
        con.execute("INSERT INTO schema_migrations VALUES (?, now())", [number])
    row = _rollout("a", 0, 1.0)
    con.execute(
        f"INSERT INTO rollouts ({', '.join(row)}, created_at) VALUES ({', '.join('?' * len(row))}, now())",
        list(row.values()),
    )
    con.execute(
        "INSERT INTO rollout_steps (rollout_id, model, step, model_step, action, ok) "
        "VALUES ('a__r0', 'm', 0, 0, 'left_click', true)"
    )
    con.close()
    warehouse = Warehouse(path)
    warehouse.start_rollout_run("rollouts-2", {"k": 1})  # the first write migrates the file
    warehouse.save_rollout(_rollout("a", 0, 0.0) | {"run_id": "rollouts-2"}, _steps(1))
    rows = run_query(path, "SELECT run_id, reward FROM rollouts ORDER BY run_id").rows
    assert rows == [("rollouts-1", 1.0), ("rollouts-2", 0.0)]
    assert run_query(path, "SELECT run_id FROM rollout_steps ORDER BY 1").rows == [
        ("rollouts-1",),
        ("rollouts-2",),
    ]
