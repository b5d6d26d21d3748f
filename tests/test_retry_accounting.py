"""Retry accounting (issue "What operators and analysts hit", item 3): a retry is another attempt of
the same tuple, so the run that sampled it counts it once in every view; the retry run is listed in
`runs` with the attempts it made; a retry that matches nothing ends Completed with a count of 0."""

from __future__ import annotations

import duckdb

from tasks.models import RetryParams, SynthParams, TupleStatus
from warehouse.db import MIGRATIONS
from warehouse.query import run_query
from warehouse.store import Warehouse

SPEC = {
    "id": "t-1", "family": "files.sort", "template": "files.sort:imperative", "apps": ["files"],
    "platform": "linux", "domain": "finance", "difficulty": "easy", "scenario": "daily",
    "persona": "clerk", "taxonomy_leaf": "files/sort", "seed": 1, "instruction": "Sort the files.",
}  # fmt: skip


def finish(warehouse: Warehouse, status: str) -> None:
    warehouse.finish_tuple(
        "t-1", status=status, rounds=1, reward_initial=0.0, reward_golden=1.0,
        reject_reason=None if status == "verified" else "golden_not_full", error=None, seconds=2.0,
    )  # fmt: skip


def test_an_attempt_records_its_run_and_the_tuple_keeps_the_run_that_sampled_it(tmp_path):
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.start_run("run-nightly", backend="procedural", seed=1, git_rev="x", params={})
    warehouse.save_specs("run-nightly", [SPEC])
    assert warehouse.start_tuple("t-1", "run-nightly", {}) == 1
    finish(warehouse, "rejected")
    warehouse.start_run("retry-1", kind="retry", backend="procedural", seed=0, git_rev="x", params={})
    assert warehouse.start_tuple("t-1", "retry-1", {}) == 2
    finish(warehouse, "verified")
    path = warehouse.path
    assert run_query(path, "SELECT run_id, status FROM tuples").rows == [("run-nightly", "verified")]
    attempts = "SELECT attempt, run_id, status, seconds FROM attempts ORDER BY attempt"
    assert run_query(path, attempts).rows == [
        (1, "run-nightly", "rejected", 2.0),
        (2, "retry-1", "verified", 2.0),
    ]
    runs = "SELECT run_id, kind FROM runs ORDER BY run_id"
    assert run_query(path, runs).rows == [("retry-1", "retry"), ("run-nightly", "synth")]
    cost = "SELECT run_id, verified, seconds, attempts FROM cost_per_verified"
    assert run_query(path, cost).rows == [("run-nightly", 1, 4.0, 2)]  # both attempts' time, one tuple
    by_run = "SELECT run_id, kind, attempts, verified, rejected FROM attempts_by_run ORDER BY run_id"
    assert run_query(path, by_run).rows == [("retry-1", "retry", 1, 1, 0), ("run-nightly", "synth", 1, 0, 1)]


def test_an_older_file_gets_its_retried_tuples_back_to_their_run(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP)")
    for migration in sorted(MIGRATIONS.glob("00*.sql")):  # the schema as it was before migration 010
        con.execute(migration.read_text())
        con.execute("INSERT INTO schema_migrations VALUES (?, now())", [int(migration.name[:3])])
    con.execute(
        "INSERT INTO runs VALUES ('run-nightly', now(), now(), 'finished', 'procedural', 1, 'x', '{}', NULL)"
    )
    con.execute(
        "INSERT INTO specs VALUES ('t-1', 'run-nightly', 0, 'f', 'f:w', ['files'], 'linux', 'finance', "
        "'easy', 'daily', 'clerk', 'leaf', 1, 'Sort.', '{}', now())"
    )
    con.execute(  # what a retry left behind before: the tuple moved to the retry run
        "INSERT INTO tuples (task_id, run_id, status, attempt, rounds, provenance, seconds, created_at, "
        "updated_at) VALUES ('t-1', 'retry-1700000000', 'exported', 2, 1, "
        '\'{"backend": "procedural", "git_rev": "abc"}\', 3.0, now(), now())'
    )
    con.close()
    warehouse = Warehouse(path)
    warehouse.refresh_snapshot(force=True)  # opening it migrates it
    assert run_query(path, "SELECT run_id FROM tuples").rows == [("run-nightly",)]
    runs = "SELECT run_id, kind, backend, git_rev FROM runs ORDER BY run_id"
    assert run_query(path, runs).rows == [
        ("retry-1700000000", "retry", "procedural", "abc"),
        ("run-nightly", "synth", "procedural", "x"),
    ]
    attempts = "SELECT attempt, run_id, status FROM attempts"
    assert run_query(path, attempts).rows == [(2, "retry-1700000000", "verified")]
    assert run_query(path, "SELECT run_id, verified FROM cost_per_verified").rows == [("run-nightly", 1)]


def test_a_retried_tuple_counts_once_for_its_run_in_every_view(prefect_harness, isolated_settings):
    from flows.retry import retry_flow
    from flows.synthesis import synthesis_flow

    nightly = synthesis_flow(SynthParams(count=2, seed=5, apps=["files"], teacher_k=0))
    assert [o.status for o in nightly.outcomes] == [TupleStatus.EXPORTED] * 2
    retried = nightly.outcomes[0].task_id
    retry = retry_flow(RetryParams(task_ids=[retried]))
    assert [o.task_id for o in retry.outcomes] == [retried]
    path, run = isolated_settings.warehouse_path, nightly.run_id
    verified = {
        "cost_per_verified": f"SELECT verified FROM cost_per_verified WHERE run_id = '{run}'",
        "yield_by_stage": f"SELECT verified FROM yield_by_stage WHERE run_id = '{run}'",
        "coverage": f"SELECT sum(verified) FROM coverage WHERE run_id = '{run}' AND dimension = 'scope'",
    }
    assert {view: run_query(path, q).rows[0][0] for view, q in verified.items()} == dict.fromkeys(verified, 2)
    runs = run_query(path, "SELECT run_id, kind, status FROM runs ORDER BY kind").rows
    assert runs == [(retry.run_id, "retry", "finished"), (run, "synth", "finished")]
    made = f"SELECT attempts, verified FROM attempts_by_run WHERE run_id = '{retry.run_id}'"
    assert run_query(path, made).rows == [(1, 1)]
    assert run_query(path, "SELECT attempts FROM cost_per_verified").rows == [(3,)]


def test_a_retry_that_matches_nothing_ends_completed_with_a_count_of_zero(prefect_harness, isolated_settings):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    from flows.retry import retry_flow

    state = retry_flow(RetryParams(task_ids=["no-such-task"]), return_state=True)
    assert state.is_completed()
    summary = state.result(_sync=True)  # sync even where an earlier test left an event loop in this thread
    assert summary.outcomes == []
    rows = run_query(
        isolated_settings.warehouse_path, "SELECT kind, status, summary->>'tuples' FROM runs"
    ).rows
    assert rows == [("retry", "finished", "0")]
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                flow_run_id=ArtifactFilterFlowRunId(any_=[state.state_details.flow_run_id])
            )
        )
    assert [a.key for a in found] == ["retry-summary"]
    assert "No tuple matched" in found[0].data and "| 0 | 0 | 0 |" in found[0].data


def test_two_retries_started_in_the_same_second_get_their_own_runs():
    from flows.retry import retry_run_id

    assert retry_run_id() != retry_run_id()  # was retry-<unix seconds>: the second reused the first's row
