"""The teacher stage of the synthesis flow: exported tuples are rolled out by their GUI teachers on
real desktops, each tuple gets its verdict in the warehouse, and a judge model that disagrees with
the reward flags the tuple."""

from __future__ import annotations

import pytest

from flows.synthesis import synthesis_flow
from flows.teacher import record_verdicts
from infra.trajectories import read_trajectories
from tasks.models import RolloutOutcome, SynthParams, TupleStatus
from tests.llm.fake_openai import FakeOpenAI, Reply
from warehouse.query import run_query
from warehouse.store import Warehouse

pytestmark = pytest.mark.slow

YES = Reply(content='```json\n{"success": true, "score": 1.0, "reason": "every row is padded"}\n```')
NO = Reply(content='```json\n{"success": false, "score": 0.0, "reason": "the IDs still look unpadded"}\n```')


def test_exported_tuples_are_rolled_out_judged_and_their_verdicts_stored(
    prefect_harness, isolated_settings, families, desktop_python, monkeypatch
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    with FakeOpenAI() as judge:
        judge.script("judge", YES, NO)  # two rollouts of the taught tuple: the judge agrees with one
        summary = synthesis_flow(
            SynthParams(
                count=2,
                seed=0,
                apps=["calc"],
                workers=2,
                teacher_k=2,
                judge_model="hosted_vllm/judge",
                api_base=judge.base_url,
            )
        )
        asked = judge.requests_for("judge")
    assert [o.status for o in summary.outcomes] == [TupleStatus.EXPORTED] * 2
    taught = next(o.task_id for o in summary.outcomes if o.family == "calc.padded_ids")
    other = next(o for o in summary.outcomes if o.task_id != taught)
    teacher = summary.teacher
    assert teacher is not None and teacher.rollouts == 2 and teacher.errors == 0
    assert teacher.solved == [taught] and teacher.failed == [] and teacher.disagreements == [taught]
    assert teacher.untaught == (0 if families[other.family].teacher else 1)

    path = isolated_settings.warehouse_path
    verdicts = dict(
        (r[0], r[1:]) for r in run_query(path, "SELECT task_id, teacher, teacher_flag FROM tuples").rows
    )
    assert verdicts[taught] == ("teacher_solved", "reward_judge_disagree")
    (flagged,) = run_query(
        path, "SELECT tuple_id, reward, judge_success FROM reward_judge_disagreements"
    ).rows
    assert flagged == (taught, 1.0, False)

    records = list(read_trajectories(isolated_settings.output_dir / "rollouts"))
    assert sorted(r.task_id for r in records) == [f"{taught}__r0", f"{taught}__r1"]
    assert all(r.reward == 1.0 for r in records)
    # the judge saw the final state: the workbook Calc saved, listed as modified
    prompt = asked[0]["messages"][0]["content"]
    changed = prompt.split("Changed from the initial state:", 1)[1].split("\n", 1)[0]
    assert changed.strip().startswith("modified: Desktop/") and changed.strip().endswith(".xlsx"), changed


def test_a_tuple_no_rollout_solved_is_teacher_failed(tmp_path):
    warehouse = Warehouse(tmp_path / "w.duckdb")
    outcomes = [
        RolloutOutcome(rollout_id="a__r0", tuple_id="a", family="f", reward=0.5),
        RolloutOutcome(
            rollout_id="a__r1", tuple_id="a", family="f", reward=None, error="desktop did not start"
        ),
        RolloutOutcome(rollout_id="b__r0", tuple_id="b", family="f", reward=1.0, judge_disagree=False),
    ]
    summary = record_verdicts(warehouse, outcomes, "d", untaught=0)
    assert (summary.solved, summary.failed, summary.disagreements, summary.errors) == (["b"], ["a"], [], 1)
