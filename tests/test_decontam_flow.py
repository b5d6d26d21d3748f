"""Decontamination through the real synthesis flow: tuples too close to a benchmark task written for
the test (tests/data/decontam/: a paraphrase, a same-target rewrite, near-but-legitimate tasks, and
a small OSWorld layout) are marked contaminated with the closest task and never exported; the rest
are exported; the warehouse view and `cuagym report contamination` show the share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from flows.retry import retry_flow
from flows.synthesis import synthesis_flow
from tasks.models import RetryParams, SynthParams, TupleStatus
from warehouse.query import run_query

DATA = Path(__file__).parent / "data" / "decontam"
# seed 5's instances of mail.sheet_figure_reply, vscode.keybindings and tracker.close_sprint (pinned, so
# that a new family in the catalogue cannot change the draw); the JSONL restates the first two (other
# words, same targets) and sits near the third without restating it
FAMILIES = ["mail.sheet_figure_reply", "vscode.keybindings", "tracker.close_sprint"]
# (tests/data/decontam/quotas.yaml: the default quotas with no cross-app minimum, which would draw the
# one cross-app family twice in a batch of three)
PARAMS = dict(count=3, seed=5, workers=2, teacher_k=0, families=FAMILIES, quotas=str(DATA / "quotas.yaml"))


def test_flow_keeps_contaminated_tuples_out_and_exports_the_rest(prefect_harness, isolated_settings):
    sets = [str(DATA / "benchmark.jsonl"), str(DATA / "osworld")]
    summary = synthesis_flow(SynthParams(**PARAMS, decontaminate=sets))
    status = {o.family: o for o in summary.outcomes}
    assert set(status) == {"mail.sheet_figure_reply", "vscode.keybindings", "tracker.close_sprint"}
    assert status["vscode.keybindings"].status is TupleStatus.CONTAMINATED  # the paraphrase
    assert status["mail.sheet_figure_reply"].status is TupleStatus.CONTAMINATED  # same targets
    legit = status["tracker.close_sprint"]
    assert legit.status is TupleStatus.EXPORTED and Path(legit.bundle, "task.json").is_file()
    final = isolated_settings.output_dir / "final"
    assert sorted(p.name for p in final.iterdir()) == [legit.task_id]  # nothing contaminated exported

    db = isolated_settings.warehouse_path
    rows = run_query(
        db,
        "SELECT tuple_id, benchmark, task_id, rule, decision, embedding, ngram, target_overlap FROM contamination",
    ).rows
    verdicts = {r[0]: r for r in rows}
    assert len(rows) == 3  # every verified tuple checked once
    keys = verdicts[status["vscode.keybindings"].task_id]
    assert keys[1:3] == ("benchmark", "para-vscode-keys") and keys[4] == "contaminated"
    revenue = verdicts[status["mail.sheet_figure_reply"].task_id]
    assert revenue[1:3] == ("benchmark", "same-target-revenue") and revenue[4] == "contaminated"
    assert verdicts[legit.task_id][4] == "clean"
    tuples = dict(run_query(db, "SELECT task_id, status FROM tuples").rows)
    assert tuples[status["vscode.keybindings"].task_id] == "contaminated"
    share = run_query(db, "SELECT sum(contaminated), sum(checked) FROM contamination_by_family").rows[0]
    assert tuple(share) == (2, 3)

    # resumed: read back as contaminated, not re-checked into an export
    again = synthesis_flow(SynthParams(**PARAMS, decontaminate=sets))
    assert all(o.resumed for o in again.outcomes)
    assert {o.family: o.status for o in again.outcomes}["vscode.keybindings"] is TupleStatus.CONTAMINATED
    assert sorted(p.name for p in final.iterdir()) == [legit.task_id]

    # retried: a new attempt is screened before export as the first one was
    paraphrase = status["vscode.keybindings"].task_id
    retried = retry_flow(RetryParams(task_ids=[paraphrase], decontaminate=sets))
    assert [(o.task_id, o.status) for o in retried.outcomes] == [(paraphrase, TupleStatus.CONTAMINATED)]
    assert sorted(p.name for p in final.iterdir()) == [legit.task_id]
    checks = run_query(db, f"SELECT count(*) FROM contamination WHERE tuple_id = '{paraphrase}'").rows
    assert checks == [(2,)]  # the first attempt's verdict and the retry's

    report = subprocess.run(
        [str(Path(sys.executable).with_name("cuagym")), "report", "contamination", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),  # the fixture set CUAGYM_VAR_DIR and CUAGYM_OUTPUT_DIR
    )
    assert report.returncode == 0, report.stderr
    found = json.loads(report.stdout)
    assert sorted(r["task_id"] for r in found["contaminated"]) == ["para-vscode-keys", "same-target-revenue"]
    chart = subprocess.run(
        [str(Path(sys.executable).with_name("cuagym")), "report", "contamination"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, COLUMNS="200"),  # rich folds lines (mid-word too) at 80 columns
    )
    assert chart.returncode == 0, chart.stderr
    said = "".join(chart.stdout.split())  # rich may fold the summary line
    assert "overall:2/3tuplescontaminated(66.7%)" in said
    assert (isolated_settings.output_dir / "reports" / "contamination.png").stat().st_size > 0
