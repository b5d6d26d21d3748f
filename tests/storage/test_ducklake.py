"""The fleet's shared warehouse: two machines' DuckDB warehouses synced at the same moment into one
DuckLake with its catalog in a real PostgreSQL and its Parquet on a real S3-protocol server.

Each "machine" is a separate var/ with its own warehouse, filled by a real `cuagym synth`; the two
`cuagym lake-sync` commands run as concurrent processes. Then: the lake holds both runs' tuples once
each, a re-sync sends nothing, a tuple whose status changed replaces its older row, and a column a
newer migration added on one machine appears in the lake.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import boto3
import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.server.postgres import PostgresCluster
from infra.settings import get_settings
from warehouse.db import connect
from warehouse.lake import LakeConfig, connect_lake, sync_to_lake
from warehouse.query import run_query
from warehouse.store import Warehouse

pytestmark = pytest.mark.slow

CUAGYM = str(Path(sys.executable).with_name("cuagym"))
SYNTH = ["synth", "--count", "2", "--workers", "1", "--teacher-k", "0", "--mutants", "0"]
SYNTH += ["--corruption-mutants", "0", "--no-export"]


@pytest.fixture
def catalog():
    """A private PostgreSQL cluster with an empty `lake` database: the lake's catalog."""
    root = Path(tempfile.mkdtemp(prefix="cuagym-pg-"))  # the postgres user cannot enter pytest's tmp
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cluster = PostgresCluster(root, port)
    cluster.ensure_initialised()
    cluster.start()
    try:
        cluster.create_database("lake")
        yield cluster.url("lake", driver="postgresql")
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def _machine(tmp_path: Path, name: str, seed: int, guest_python: Path, monkeypatch) -> Path:
    """A var/ of its own, with a warehouse a real synth run filled; returns the warehouse file."""
    var = tmp_path / name / "var"
    monkeypatch.setenv("CUAGYM_VAR_DIR", str(var))
    monkeypatch.setenv("CUAGYM_OUTPUT_DIR", str(tmp_path / name / "output"))
    monkeypatch.setenv("CUAGYM_GUEST_VENV", str(guest_python))
    get_settings.cache_clear()
    result = CliRunner().invoke(main, [*SYNTH, "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    get_settings.cache_clear()
    return var / "warehouse.duckdb"


def test_two_machines_sync_into_one_lake_at_once(
    prefect_harness, tmp_path, guest_python, bucket, catalog, monkeypatch
):
    first = _machine(tmp_path, "a", 31, guest_python, monkeypatch)
    second = _machine(tmp_path, "b", 32, guest_python, monkeypatch)
    data = f"s3://{bucket}/lake"
    config = LakeConfig(catalog, data)

    # Both at once, as two fleet machines finishing their nightly runs in the same second.
    syncs = [
        subprocess.Popen(
            [CUAGYM, "lake-sync", "--warehouse", str(w)],
            env={**os.environ, "CUAGYM_LAKE_CATALOG": catalog, "CUAGYM_LAKE_DATA": data},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for w in (first, second)
    ]
    outputs = [p.communicate(timeout=300)[0] for p in syncs]
    assert [p.returncode for p in syncs] == [0, 0], outputs

    local = {
        w: run_query(w, "SELECT task_id, run_id, status FROM tuples ORDER BY 1").rows for w in (first, second)
    }
    lake = connect_lake(config)
    try:
        in_lake = lake.execute("SELECT task_id, run_id, status FROM tuples ORDER BY 1").fetchall()
        assert sorted(in_lake) == sorted(local[first] + local[second])  # each tuple once
        assert len({run for _, run, _ in in_lake}) == 2
        rounds = sum(run_query(w, "SELECT count(*) FROM rounds").rows[0][0] for w in (first, second))
        assert lake.execute("SELECT count(*) FROM rounds").fetchone()[0] == rounds
        snapshots = lake.execute("SELECT count(*) FROM ducklake_snapshots('lake')").fetchone()[0]
        assert snapshots >= 3  # the lake's creation, then one commit per machine
    finally:
        lake.close()
    keys = [o["Key"] for o in boto3.client("s3").list_objects_v2(Bucket=bucket, Prefix="lake/")["Contents"]]
    assert any(k.endswith(".parquet") and "/tuples/" in k for k in keys)  # the rows live on S3

    assert sum(t.written for t in sync_to_lake(first, config)) == 0  # nothing new: nothing sent

    # A tuple changes on the first machine (a retry exported it elsewhere); a newer migration there
    # added a column. The next sync replaces that one row and adds the column.
    task_id = local[first][0][0]
    Warehouse(first).mark_exported(task_id, "/elsewhere/final/" + task_id)
    con = connect(first)
    con.execute("ALTER TABLE runs ADD COLUMN fleet_host VARCHAR DEFAULT 'machine-a'")
    con.close()
    Warehouse(first).refresh_snapshot(force=True)
    synced = {t.table: t for t in sync_to_lake(first, config)}
    assert (synced["tuples"].written, synced["tuples"].replaced) == (1, 1)
    lake = connect_lake(config)
    try:
        rows = lake.execute("SELECT status, bundle_path FROM tuples WHERE task_id = ?", [task_id]).fetchall()
        assert rows == [("exported", "/elsewhere/final/" + task_id)]
        hosts = lake.execute("SELECT fleet_host, count(*) FROM runs GROUP BY ALL ORDER BY ALL").fetchall()
        assert hosts == [("machine-a", 1), (None, 1)]
        assert lake.execute("SELECT count(*) FROM tuples").fetchone()[0] == len(in_lake)
    finally:
        lake.close()


def test_machines_opening_an_empty_lake_at_once_all_get_in(catalog, tmp_path):
    """The first ATTACH of an empty catalog creates DuckLake's tables in PostgreSQL; four processes
    doing it at the same moment collided (duplicate type names) until the attach took a lock."""
    code = (
        "from warehouse.lake import LakeConfig, connect_lake\n"
        f"con = connect_lake(LakeConfig({catalog!r}, {str(tmp_path / 'data')!r}))\n"
        "print(con.execute('SELECT count(*) FROM ducklake_snapshots(\\'lake\\')').fetchone()[0])\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
    assert all(out.strip().splitlines()[-1] == "1" for out in outputs)  # one catalog, made once
