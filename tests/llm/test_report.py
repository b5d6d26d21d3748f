"""`cuagym report rejections`: the most common reject reasons per app and condition."""

from __future__ import annotations

import json

from click.testing import CliRunner

from flows.cli import main
from tasks.models import Grade, RejectReason, Round, Scripts, TaskSpec
from tasks.review import assess_round, render_review
from tasks.synthesize import round_row
from warehouse.store import Warehouse

from .conftest import SPEC

CALC_SPEC = TaskSpec.model_validate(SPEC.model_dump() | {"id": "llm.calc.x-1", "apps": ["calc", "writer"]})


def _failed_round(spec: TaskSpec, number: int, **judged) -> Round:
    review, reason = assess_round(setup=None, patch=None, golden=None, initial=None, findings=None, **judged)
    review.markdown = render_review(review, task_id=spec.id, round_no=number, max_rounds=5)
    return Round(
        task_id=spec.id, attempt=1, number=number, scripts=Scripts(), review=review, reject_reason=reason
    )


def _golden_half(spec: TaskSpec, number: int) -> Round:
    from infra.sandbox import SandboxResult

    ok = SandboxResult(exit_code=0, stdout="", stderr="", duration_s=0.1)
    review, reason = assess_round(
        setup=ok,
        patch=ok,
        golden=Grade(score=0.5, exit_code=0),
        initial=Grade(score=0.0, exit_code=0),
        findings=[],
    )
    review.markdown = "# REVIEW"
    return Round(
        task_id=spec.id, attempt=1, number=number, scripts=Scripts(), review=review, reject_reason=reason
    )


def test_report_groups_failed_rounds_and_votes_by_app_and_condition(tmp_path):
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.save_specs("run", [SPEC.model_dump(mode="json"), CALC_SPEC.model_dump(mode="json")])
    for spec in (SPEC, CALC_SPEC):
        warehouse.start_tuple(spec.id, "run", {})
    no_code = (RejectReason.GENERATOR_ERROR, "no fenced code block in the reply")
    for n in (1, 2, 3):
        warehouse.save_round(round_row(_failed_round(SPEC, n, agent_error=no_code)))
    warehouse.save_round(round_row(_golden_half(SPEC, 4)))
    warehouse.save_round(round_row(_golden_half(CALC_SPEC, 1)))
    survived = round_row(_golden_half(SPEC, 5)) | {"reject_reason": "mutant_survived"}
    survived["conditions"] = [{**c, "ok": True} for c in survived["conditions"]]
    warehouse.save_round(survived)
    warehouse.save_votes(
        CALC_SPEC.id,
        1,
        [{"critic": 1, "model": "m", "decision": "reject", "reason": "loose check", "criteria": {}}],
        {"decision": "reject", "keep": 0, "modify_query": 0, "reject": 1, "errors": 0},
    )

    result = CliRunner().invoke(
        main, ["report", "rejections", "--warehouse", str(warehouse.path), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    rows = [
        (r["app"], r["condition"], r["reason"], r["rounds"], r["tuples"]) for r in json.loads(result.output)
    ]
    # a cross-app tuple counts once, under its apps together (it was a calc row and a writer row)
    assert rows[:2] == [
        ("calc+writer", "golden_full", "golden_not_full", 1, 1),
        ("calc+writer", "vote", "vote_reject", 1, 1),
    ]
    assert not [r for r in rows if r[0] in ("calc", "writer")]
    # agent errors are the generator's stage (no script reached condition 1), not "agent"/"setup_ok"
    assert ("files", "generator", "generator_error", 3, 1) in rows
    assert rows.index(("files", "generator", "generator_error", 3, 1)) < rows.index(
        ("files", "golden_full", "golden_not_full", 1, 1)
    )
    # the five conditions held and a mutant survived: the mutation stage failed it
    assert ("files", "mutation", "mutant_survived", 1, 1) in rows
    assert all(r[1] != "agent" for r in rows)

    only_calc = CliRunner().invoke(
        main,
        ["report", "rejections", "--warehouse", str(warehouse.path), "--app", "calc", "--format", "json"],
    )
    assert {r["app"] for r in json.loads(only_calc.output)} == {"calc+writer"}
    only_files = CliRunner().invoke(
        main, ["report", "rejections", "--warehouse", str(warehouse.path), "--app", "files"]
    )
    assert (
        only_files.exit_code == 0
        and "generator_error" in only_files.output
        and "calc" not in only_files.output
    )
    example = [r for r in json.loads(result.output) if r["reason"] == "generator_error"][0]["example"]
    assert "no fenced code block" in example
