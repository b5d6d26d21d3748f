"""`cuagym sql` is read-only: every way out of "one SELECT over the snapshot" is refused, and the
live warehouse and its snapshot are byte-identical afterwards (issue "What operators and analysts
hit", item 1)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.errors import WarehouseError
from warehouse.db import SEALED_READER, connect
from warehouse.query import QueryRefusedError, run_query
from warehouse.store import Warehouse

SPEC = {
    "id": "t-1", "family": "calc.sum", "template": "calc.sum:imperative", "apps": ["calc"],
    "platform": "linux", "domain": "finance", "difficulty": "easy", "scenario": "daily",
    "persona": "clerk", "taxonomy_leaf": "calc/formulas", "seed": 1, "instruction": "Sum B2:B6.",
}  # fmt: skip


@pytest.fixture
def warehouse(tmp_path) -> Warehouse:
    warehouse = Warehouse(tmp_path / "var" / "warehouse.duckdb")
    warehouse.start_run("run-1", backend="procedural", seed=1, git_rev="test", params={})
    warehouse.save_specs("run-1", [SPEC])
    warehouse.start_tuple("t-1", "run-1", {})
    warehouse.refresh_snapshot(force=True)
    return warehouse


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def attacks(live: Path, scratch: Path) -> list[str]:
    """Each tries to write, attach, change a setting or touch the file system."""
    return [
        f"ATTACH '{live}' AS w (READ_WRITE); DELETE FROM w.tuples",
        f"ATTACH '{live}' AS w (READ_WRITE)",
        "DETACH warehouse",
        f"COPY tuples TO '{scratch}/x.csv'",
        f"COPY (SELECT * FROM specs) TO '{scratch}/x.parquet' (FORMAT PARQUET)",
        f"COPY tuples FROM '{scratch}/in.csv'",
        "COPY FROM DATABASE warehouse TO memory",
        f"EXPORT DATABASE '{scratch}/dump'",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "RESET lock_configuration",
        "SET threads = 1",
        "PRAGMA enable_profiling",
        "PRAGMA disable_checkpoint_on_shutdown",
        "CALL pragma_version()",
        "CHECKPOINT",
        "VACUUM",
        "BEGIN TRANSACTION",
        "CREATE TABLE x AS SELECT 1",
        "CREATE TEMP TABLE x AS SELECT * FROM tuples",
        "CREATE MACRO leak(p) AS p",
        "INSERT INTO runs (run_id) VALUES ('sneaky')",
        "UPDATE tuples SET status = 'verified'",
        "DELETE FROM tuples",
        "DROP VIEW tuple_status",
        "CREATE SECRET s (TYPE http, BEARER_TOKEN 'x')",
        "SELECT 1; DELETE FROM tuples",  # a write hidden after a `;`
        "SELECT 1;\n-- looks like a comment\nDROP TABLE tuples",
        "EXPLAIN ANALYZE DELETE FROM tuples",
    ]


FILE_READS = [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_csv_auto(['/etc/passwd', '/etc/hostname'])",
    "SELECT * FROM read_parquet('/etc/passwd')",
    "SELECT * FROM read_json('/etc/passwd')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_blob('/etc/hostname')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    "WITH x AS (SELECT content FROM read_text('/etc/passwd')) SELECT * FROM x",
    "SELECT * FROM 'https://example.com/x.csv'",
]


def test_every_attempt_to_write_attach_or_configure_is_refused_and_nothing_changes(warehouse, tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "in.csv").write_text("task_id\nforged\n")
    before = digest(warehouse.path), digest(warehouse.snapshot_path)
    for query in attacks(warehouse.path, scratch):
        with pytest.raises(
            QueryRefusedError, match=r"refused: .*read-only SELECT over the warehouse snapshot"
        ):
            run_query(warehouse.path, query)
    assert (digest(warehouse.path), digest(warehouse.snapshot_path)) == before
    assert sorted(p.name for p in scratch.iterdir()) == ["in.csv"]  # no file written, no dump folder
    assert run_query(warehouse.path, "SELECT count(*) FROM tuples").rows == [(1,)]


@pytest.mark.parametrize("query", FILE_READS)
def test_reading_host_files_is_refused(warehouse, query):
    before = digest(warehouse.path), digest(warehouse.snapshot_path)
    with pytest.raises(QueryRefusedError, match=r"refused: file system access"):
        run_query(warehouse.path, query)
    assert (digest(warehouse.path), digest(warehouse.snapshot_path)) == before


def test_a_path_in_from_is_no_replacement_scan(warehouse):
    # DuckDB reads `FROM '/etc/passwd'` as a CSV scan when external access is on; sealed, it is
    # only an unknown table name and nothing of the file comes back
    with pytest.raises(WarehouseError, match="does not exist") as caught:
        run_query(warehouse.path, "FROM '/etc/passwd'")
    assert "root:" not in str(caught.value)


def test_the_sealed_snapshot_refuses_files_and_settings_even_without_the_statement_check(warehouse, tmp_path):
    # the second wall on its own: a statement that got past the parser check still cannot escape
    con = connect(warehouse.snapshot_path, read_only=True, config=SEALED_READER)
    try:
        for query in (
            f"ATTACH '{warehouse.path}' AS w (READ_WRITE)",
            f"COPY tuples TO '{tmp_path}/x.csv'",
            "SELECT * FROM read_text('/etc/passwd')",
            "LOAD httpfs",
        ):
            with pytest.raises(duckdb.PermissionException):
                con.execute(query)
        with pytest.raises(duckdb.InvalidInputException, match="configuration"):
            con.execute("SET enable_external_access = true")
        assert con.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)
    finally:
        con.close()
    assert not (tmp_path / "x.csv").exists()


def test_selects_describe_show_and_summarize_still_answer(warehouse):
    assert run_query(warehouse.path, "SELECT task_id, status FROM tuples;").rows == [("t-1", "generating")]
    cte = "WITH s AS (SELECT * FROM tuple_status) SELECT count(*) AS n FROM s"
    assert run_query(warehouse.path, cte).rows == [(1,)]
    assert ("task_id",) in [r[:1] for r in run_query(warehouse.path, "DESCRIBE tuples").rows]
    assert ("tuples",) in run_query(warehouse.path, "SHOW TABLES").rows
    assert run_query(warehouse.path, "SUMMARIZE runs").columns[0] == "column_name"


def test_the_cli_exits_non_zero_and_says_why(warehouse, monkeypatch):
    before = digest(warehouse.path)
    query = f"ATTACH '{warehouse.path}' AS w (READ_WRITE); DELETE FROM w.tuples"
    result = CliRunner().invoke(main, ["sql", query, "--warehouse", str(warehouse.path)])
    assert result.exit_code == 1
    assert "refused: 2 statements (ATTACH, DELETE)" in result.output
    assert "read-only SELECT" in result.output
    assert digest(warehouse.path) == before
    ok = CliRunner().invoke(
        main, ["sql", "SELECT task_id FROM tuples", "--format", "json", "--warehouse", str(warehouse.path)]
    )
    assert ok.exit_code == 0 and json.loads(ok.stdout) == [{"task_id": "t-1"}]
