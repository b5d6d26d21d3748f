"""Mutation testing through the whole pipeline: the synthesis flow stores every mutant, the views and
`cuagym report mutation` read them, and `cuagym verify --mutants` re-runs the stage from a bundle's
own files — failing a bundle whose reward was weakened."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from flows.cli import main
from flows.synthesis import synthesis_flow
from tasks.models import SynthParams, TupleStatus
from warehouse.query import run_query

from .agents_fixtures import CRAFTED_REWARDS


def test_mutants_are_stored_reported_and_reverified(prefect_harness, isolated_settings):
    summary = synthesis_flow(SynthParams(count=3, seed=2, apps=["chat"], workers=1, teacher_k=0))
    assert [o.status for o in summary.outcomes] == [TupleStatus.EXPORTED] * 3, summary.outcomes
    path = isolated_settings.warehouse_path
    stored = run_query(path, "SELECT count(*), count(DISTINCT task_id) FROM mutants").rows[0]
    assert stored[0] >= 9 and stored[1] == 3
    per_family = run_query(
        path, "SELECT family, tuples, mutants, mutation_score FROM mutation_by_family"
    ).rows
    assert sum(r[1] for r in per_family) == 3 and all(
        score == 1.0 and n >= 3 for _, _, n, score in per_family
    )
    review = run_query(path, "SELECT review_md FROM rounds WHERE verdict = 'PASS' LIMIT 1").rows[0][0]
    assert "## Mutation testing" in review

    report = CliRunner().invoke(main, ["report", "mutation"])
    assert report.exit_code == 0, report.output
    assert "mutation score per family" in report.output and "killed (100.0%)" in report.output
    assert (isolated_settings.output_dir / "reports" / "all-runs-mutation.png").stat().st_size > 10_000

    bundle = next(Path(o.bundle) for o in summary.outcomes if o.family == "chat.thread_reply_react")
    clean = CliRunner().invoke(main, ["verify", str(bundle), "--mutants", "4"])
    assert clean.exit_code == 0, clean.output
    old, new = CRAFTED_REWARDS["ignores_the_reaction"]
    reward = bundle / "reward.py"
    reward.write_text(reward.read_text().replace(old, new))  # still 0 on initial, 1 on golden
    weakened = CliRunner().invoke(main, ["verify", str(bundle), "--mutants", "4"])
    assert weakened.exit_code == 1, weakened.output
    flat = "".join(c for c in weakened.output if c.isalnum() or c in ".:")  # rich wraps table cells
    assert "mutantsurvived" in flat and "allchangesbut" in flat
