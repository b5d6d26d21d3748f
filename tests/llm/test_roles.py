"""Critics, task writer and judge against the fake server, and the votes they leave in the warehouse."""

from __future__ import annotations

import hashlib
import json

import pytest

from infra.envs.base import EnvRole, FileEntry, StateView
from infra.llm import LLMClient
from tasks.judge import judge_state
from tasks.models import (
    Difficulty,
    Domain,
    RejectReason,
    Review,
    Round,
    Scenario,
    Scripts,
    TupleStatus,
    Verdict,
)
from tasks.task_writer import TaskSeed, TaskWriter, draw_seeds
from tasks.vote import TupleCritic
from warehouse.store import Warehouse

from ..conftest import SKILLS
from .conftest import SPEC, role_config
from .fake_openai import FakeOpenAI, Reply, Status, opening_text, tool


@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as fake:
        yield fake


def _vote(decision: str) -> Reply:
    return Reply(
        content=f'```json\n{{"decision": "{decision}", "reason": "because", "criteria": '
        '{"hack_risk": {"ok": false, "note": "loose"}}}\n```'
    )


ROUND = Round(
    task_id=SPEC.id,
    attempt=1,
    number=1,
    scripts=Scripts(initial_setup_py="a=1", golden_patch_py="b=2", reward_py="c=3"),
    review=Review(verdict=Verdict.PASS, conditions=[], markdown="# REVIEW"),
)


@pytest.mark.parametrize(
    ("replies", "decision", "status", "reason"),
    [
        (["keep", "keep", "reject"], "keep", TupleStatus.VERIFIED, None),
        (
            ["modify_query", "keep", "modify_query"],
            "modify_query",
            TupleStatus.REJECTED,
            RejectReason.VOTE_MODIFY_QUERY,
        ),
        (
            ["keep", "reject", "garbage"],
            "reject",
            TupleStatus.REJECTED,
            RejectReason.VOTE_REJECT,
        ),  # no strict majority
    ],
)
def test_critics_strict_majority_is_stored_per_vote(server, tmp_path, replies, decision, status, reason):
    model = f"critic-{decision}"
    script = [Reply(content="no json here") if r == "garbage" else _vote(r) for r in replies]
    server.script(model, *script)
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.save_specs("run", [SPEC.model_dump(mode="json")])
    warehouse.start_tuple(SPEC.id, "run", {})
    critic = TupleCritic(LLMClient(role_config(server, "critic", model)), 3)
    assert critic.review_tuple(SPEC, ROUND, 1, warehouse) == (status, reason)
    votes = warehouse.tuple_votes(SPEC.id)
    assert [v["decision"] for v in votes] == [("error" if r == "garbage" else r) for r in replies]
    assert {v["aggregate"] for v in votes} == {decision}
    assert votes[0]["criteria"]["hack_risk"]["ok"] is False
    prompts = [opening_text(r) for r in server.requests_for(model)]
    assert all(
        "c=3" in p and "# REVIEW" in p and "reward_tracking" in p for p in prompts
    )  # critics see it all
    assert len({p for p in prompts}) == 3  # "critic k of n": three distinct prompts (and cache keys)


def test_a_critic_whose_provider_fails_casts_an_error_vote(server):
    server.script("critic-down", Status(401), _vote("keep"), _vote("keep"))
    result = TupleCritic(LLMClient(role_config(server, "critic", "critic-down")), 3).vote(SPEC, ROUND)
    assert (result.decision, result.keep, result.errors) == ("keep", 2, 1)


def test_task_writer_states_goals_and_is_re_asked_once(server):
    seed = TaskSeed(
        leaf="files/organise/sort_into_folders",
        leaf_description="Sort files into folders",
        apps=["files"],
        persona="a paralegal",
        scenario=Scenario.COMMERCIAL,
        domain=Domain.LEGAL,
        difficulty=Difficulty.MEDIUM,
        seed=7,
    )
    context = (
        "/home/user/Desktop holds case_a.pdf, case_b.pdf and invoice_1.txt. Done: Desktop/Cases holds "
        "both PDFs, Desktop/Invoices holds invoice_1.txt, and none of them remains in Desktop itself."
    )
    server.script(
        "writer",
        Reply(
            tool_calls=[
                tool("submit_task", instruction="Click the Files icon and drag the PDFs.", context=context)
            ]
        ),
        Reply(
            tool_calls=[
                tool(
                    "submit_task",
                    instruction="Tidy my Desktop: case PDFs into a Cases "
                    "folder and invoices into an Invoices folder.",
                    context=context,
                )
            ]
        ),
    )
    records = []
    writer = TaskWriter(LLMClient(role_config(server, "task_writer", "writer"), sink=records.append), SKILLS)
    spec = writer.write(seed)
    assert spec.instruction.startswith("Tidy my Desktop") and spec.context == context
    assert (
        spec.taxonomy_leaf == seed.leaf
        and spec.family == f"llm:{seed.leaf}"
        and spec.id.startswith("llm.files.")
    )
    second_prompt = server.requests_for("writer")[1]["messages"][0]["content"]
    assert "dictates the GUI path ('Click')" in second_prompt and "a paralegal" in second_prompt
    assert [r.tags["task_id"] for r in records] == [spec.id, spec.id]  # tagged once the spec existed


def test_seeds_take_turns_across_apps_and_cap_each_leaf():
    seeds = draw_seeds(SKILLS, count=6, seed=3, apps=["calc", "writer"])
    assert [s.apps[0] for s in seeds] == ["calc", "writer"] * 3
    assert draw_seeds(SKILLS, count=6, seed=3, apps=["calc", "writer"]) == seeds  # same seed, same batch
    assert sum(s.difficulty is Difficulty.HARD for s in draw_seeds(SKILLS, count=60, seed=1)) >= 15


def test_judge_reads_the_final_state(server):
    server.script("judge", Reply(content='```json\n{"success": true, "score": 1.0, "reason": "done"}\n```'))
    view = StateView(
        env_id="e", role=EnvRole.ROLLOUT, files=[FileEntry(path="Documents/todo.txt", kind="file", size=9)]
    )
    verdict = judge_state(
        LLMClient(role_config(server, "judge", "judge")), SPEC, view, "modified: Documents/todo.txt"
    )
    assert verdict.success and verdict.score == 1.0
    assert "Documents/todo.txt" in server.requests_for("judge")[0]["messages"][0]["content"]


def test_every_skill_has_at_least_eight_bitter_lessons_and_a_hash():
    from tasks.skills import load_skill

    for skill_md in sorted(SKILLS.glob("*/SKILL.md")):
        text = skill_md.read_text()
        lessons = text.split("## Bitter lessons", 1)[1].split("\n## ", 1)[0]
        numbered = [line for line in lessons.splitlines() if line[:3].rstrip(". ").isdigit()]
        assert len(numbered) >= 8, f"{skill_md}: {len(numbered)} bitter lessons"
        app = skill_md.parent.name
        assert load_skill(SKILLS, [app]).hashes[app] == hashlib.sha256(text.encode()).hexdigest()
    assert json.dumps(SPEC.model_dump(mode="json"))  # the spec the LLM tests use is plain JSON
