"""The synthesis flow end to end on the real Prefect engine, and the CLI under a kill and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from flows.synthesis import synthesis_flow
from tasks.models import SynthParams, TupleStatus
from tasks.verify import verify_bundles
from warehouse.query import run_query

CUAGYM = str(Path(sys.executable).with_name("cuagym"))


def test_flow_verifies_exports_and_resumes(prefect_harness, isolated_settings, tmp_path):
    params = SynthParams(count=6, seed=3, workers=2, teacher_k=0)
    summary = synthesis_flow(params)
    assert len(summary.outcomes) == 6
    exported = [o for o in summary.outcomes if o.status is TupleStatus.EXPORTED]
    assert len(exported) == 6, [(o.task_id, o.reject_reason) for o in summary.outcomes]
    assert len({tuple(o.apps) for o in summary.outcomes}) >= 5  # apps take turns
    for check in verify_bundles([Path(o.bundle) for o in exported], isolated_settings):
        assert check.ok, check.problems
    table = pq.read_table(isolated_settings.output_dir / "tuples.parquet")
    assert table.num_rows == 6
    runs = run_query(isolated_settings.warehouse_path, "SELECT status, summary FROM runs").rows
    assert runs[0][0] == "finished" and json.loads(runs[0][1])["verified"] == 6

    again = synthesis_flow(params)
    assert all(o.resumed for o in again.outcomes)
    assert {o.task_id for o in again.outcomes} == {o.task_id for o in summary.outcomes}
    rounds = run_query(isolated_settings.warehouse_path, "SELECT count(*) FROM rounds").rows[0][0]
    assert rounds == 6  # nothing recomputed

    # The same run to a new --out: resumed, and every verified tuple exported there too.
    elsewhere = tmp_path / "elsewhere"
    moved = synthesis_flow(params.model_copy(update={"out": str(elsewhere)}))
    assert all(o.resumed for o in moved.outcomes) and not moved.checks_failed, moved.checks_failed
    assert sorted(p.name for p in (elsewhere / "final").iterdir()) == sorted(o.task_id for o in exported)
    assert all(Path(o.bundle).is_relative_to(elsewhere) for o in moved.outcomes)
    assert pq.read_table(elsewhere / "tuples.parquet").num_rows == 6
    assert run_query(isolated_settings.warehouse_path, "SELECT count(*) FROM rounds").rows[0][0] == 6


def _finished(env) -> int:
    out = subprocess.run(
        [
            CUAGYM,
            "sql",
            "SELECT count(*) FROM tuples WHERE status IN ('exported','rejected')",
            "--format",
            "csv",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return int(out.stdout.splitlines()[1]) if out.returncode == 0 and len(out.stdout.splitlines()) > 1 else -1


@pytest.mark.slow
def test_killed_run_resumes_without_duplicates_and_sql_reads_while_writing(tmp_path, guest_python):
    env = {
        **os.environ,
        "CUAGYM_VAR_DIR": str(tmp_path / "var"),
        "CUAGYM_OUTPUT_DIR": str(tmp_path / "out"),
        "CUAGYM_GUEST_VENV": str(guest_python),
    }
    cmd = [CUAGYM, "synth", "--count", "14", "--seed", "21", "--workers", "1", "--teacher-k", "0"]
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    seen_while_running = -1
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        seen_while_running = _finished(env)  # `cuagym sql` while the writer is busy
        if seen_while_running >= 3:
            break
        time.sleep(0.5)
    assert proc.poll() is None, "run finished before it could be killed"
    assert _processes_of(tmp_path), "the run should have started a hub (its sample has web tasks)"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert seen_while_running >= 3
    _assert_all_ended(tmp_path)  # the hub and workers it started did not outlive it
    before = {
        r[0]: r[1] for r in _rows(env, "SELECT task_id, updated_at FROM tuples WHERE status = 'exported'")
    }

    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    after = _rows(env, "SELECT task_id, status, attempt, updated_at FROM tuples")
    assert len(after) == 14 and all(r[1] in ("exported", "rejected") for r in after)
    for task_id, _status, attempt, updated_at in after:
        if task_id in before:  # finished before the kill: read back, not recomputed
            assert attempt == 1 and updated_at == before[task_id]
    dupes = _rows(
        env, "SELECT task_id, attempt, round, count(*) FROM rounds GROUP BY ALL HAVING count(*) > 1"
    )
    assert dupes == []
    bundles = [p for p in (tmp_path / "out" / "final").iterdir() if not p.name.startswith(".")]
    assert len(bundles) == sum(r[1] == "exported" for r in after)


def _processes_of(tmp_path: Path) -> list[str]:
    """Command lines of live processes whose environment names `tmp_path` (what a run started)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(tmp_path).encode() in environ and int(pid) != os.getpid():
            found.append(f"{pid}: {cmdline}")
    return found


def _assert_all_ended(tmp_path: Path, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while (left := _processes_of(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"processes outlived their run: {left}"


def test_a_run_that_stops_on_an_error_leaves_no_process_behind(tmp_path):
    env = {
        **os.environ,
        "CUAGYM_VAR_DIR": str(tmp_path / "var"),
        "CUAGYM_OUTPUT_DIR": str(tmp_path / "out"),
        "CUAGYM_GUEST_VENV": str(tmp_path / "no-such-venv"),
        "PREFECT_HOME": str(tmp_path / "prefect"),
    }
    run = subprocess.run(
        [CUAGYM, "synth", "--count", "2", "--apps", "chat", "--seed", "1", "--teacher-k", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1 and "hint:" in run.stderr and "guest Python" in run.stderr, run.stderr[-2000:]
    _assert_all_ended(tmp_path, timeout_s=3)


def _rows(env, query):
    out = subprocess.run(
        [CUAGYM, "sql", query, "--format", "json"], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return [tuple(row.values()) for row in json.loads(out.stdout)]


def test_retry_flow_reruns_rejected_tuples_as_new_attempts(prefect_harness, isolated_settings):
    from flows.retry import retry_flow
    from tasks.models import RetryParams
    from tasks.plan import plan_batch
    from tasks.runtime import build_context, run_id_for
    from tasks.synthesize import synthesize_tuple
    from warehouse.store import Warehouse

    from .agents_fixtures import LazyGenerator
    from .conftest import SKILLS

    params = SynthParams(count=2, seed=8, apps=["files"], max_rounds=1, teacher_k=0)
    warehouse = Warehouse(isolated_settings.warehouse_path)
    run_id = run_id_for(params)
    specs = plan_batch(params, isolated_settings, run_id, warehouse)
    ctx = build_context(params, isolated_settings, run_id, warehouse)
    ctx.deps.generator = LazyGenerator(SKILLS)
    try:
        assert all(synthesize_tuple(s, ctx).status is TupleStatus.REJECTED for s in specs)
    finally:
        ctx.deps.close()
    summary = retry_flow(RetryParams(reject_reason="golden_not_full", app="files"))
    assert {o.task_id for o in summary.outcomes} == {s.id for s in specs}
    assert all(o.status is TupleStatus.EXPORTED for o in summary.outcomes)
    rows = run_query(
        isolated_settings.warehouse_path,
        "SELECT attempt, verdict, count(*) FROM rounds GROUP BY ALL ORDER BY ALL",
    ).rows
    assert rows == [(1, "FAIL", 2), (2, "PASS", 2)]


def test_budgeted_run_samples_batches_until_the_verified_budget(prefect_harness, isolated_settings):
    summary = synthesis_flow(
        SynthParams(count=3, seed=40, apps=["vscode"], verified_budget=5, max_batches=4, teacher_k=0)
    )
    verified = [o for o in summary.outcomes if o.status is TupleStatus.EXPORTED]
    assert len(verified) >= 5 and len(summary.outcomes) == 6  # two batches of three
    runs = run_query(isolated_settings.warehouse_path, "SELECT count(*) FROM runs WHERE status = 'finished'")
    assert runs.rows == [(2,)]


def test_web_apps_synthesise_verified_tuples_end_to_end(prefect_harness, isolated_settings):
    summary = synthesis_flow(
        SynthParams(count=4, seed=9, apps=["chat", "tracker", "store", "mail"], teacher_k=0)
    )
    assert {o.apps[0] for o in summary.outcomes} == {"chat", "tracker", "store", "mail"}
    assert all(o.status is TupleStatus.EXPORTED for o in summary.outcomes), summary.outcomes
    checks = list(verify_bundles([Path(o.bundle) for o in summary.outcomes], isolated_settings))
    assert all(c.ok for c in checks), [c.problems for c in checks]
    reward = (Path(summary.outcomes[0].bundle) / "reward.py").read_text()
    assert "__CUAGYM_HUB_URL__" in reward  # placeholders kept for runs outside our sandbox


def test_a_failed_data_check_makes_synth_exit_non_zero(prefect_harness, isolated_settings):
    from click.testing import CliRunner

    from flows.cli import main

    args = ["synth", "--count", "2", "--apps", "files", "--seed", "11", "--workers", "1", "--teacher-k", "0"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    bundle = next((isolated_settings.output_dir / "final").iterdir())
    (bundle / "reward.py").unlink()  # a damaged export: the resumed run keeps it, the exports suite sees it
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 1, again.output
    assert "data check(s) failed" in again.output and "bundle_complete" in again.output
