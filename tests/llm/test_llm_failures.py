"""Everything a model (or its server) can do wrong ends as the right round failure or retry — never
a crash, never a silent success — and every round and every try is counted in the warehouse."""

from __future__ import annotations

from infra.llm import LLMClient
from tasks.cogen import cogenerate
from tasks.models import RejectReason, TupleStatus, Verdict
from tasks.skills import load_skill
from tasks.synthesize import synthesize_tuple
from warehouse.query import run_query

from ..conftest import SKILLS
from .conftest import DISC, GEN, HALF_REWARD, PATCH, REWARD, SETUP, SPEC, make_context, role_config
from .fake_openai import Hang, Reply, Status, opening_text, tool

GOOD_GEN = Reply(tool_calls=[tool("submit", initial_setup_py=SETUP, golden_patch_py=PATCH)])
GOOD_DISC = Reply(tool_calls=[tool("submit", reward_py=REWARD)])


def _rounds(warehouse) -> list[tuple]:
    warehouse.refresh_snapshot(force=True)
    return run_query(
        warehouse.path,
        "SELECT round, verdict, reject_reason, review_md FROM rounds "
        f"WHERE task_id = '{SPEC.id}' ORDER BY round",
    ).rows


def _tries(warehouse, role: str) -> list[tuple]:
    warehouse.refresh_snapshot(force=True)
    return run_query(
        warehouse.path,
        "SELECT round, status, error_kind FROM llm_calls "
        f"WHERE task_id = '{SPEC.id}' AND role = '{role}' ORDER BY started_at",
    ).rows


def _prompt(server, model: str, index: int) -> str:
    """The opening the role's model was sent: its system prompt and the task's user message."""
    return opening_text(server.requests_for(model)[index])


def _run(server, provider, llm_discriminator, warehouse, tmp_path, **kw):
    ctx = make_context(server, provider, llm_discriminator, warehouse, tmp_path, **kw)
    outcome = synthesize_tuple(SPEC, ctx)
    assert server.pending() == 0, "every scripted reply was consumed"
    return outcome


def test_reply_without_code_block_fails_the_round_and_the_review_quotes_it(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    chatty = "Sure! I will create the to-do list and then append the new item for you."
    # Round 2 answers in text: two fenced blocks named by their first comment are accepted too.
    fenced = f"Here they are.\n\n```python\n# initial_setup.py\n{SETUP}```\n\n```python\n# golden_patch.py\n{PATCH}```\n"
    server.script(GEN, Reply(content=chatty), Reply(content=fenced))
    server.script(DISC, GOOD_DISC)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=2)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 2
    (r1, v1, why1, review1), (_, v2, _, _) = _rounds(warehouse)
    assert (v1, why1, v2) == ("FAIL", "generator_error", "PASS")
    assert "no fenced code block" in review1 and "Sure! I will create" in review1
    second_prompt = _prompt(server, GEN, 1)
    assert "The previous round failed" in second_prompt and "no fenced code block" in second_prompt
    assert _tries(warehouse, "generator") == [(1, "ok", None), (2, "ok", None)]


def test_invalid_json_arguments_fail_the_round_with_the_json_error(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    broken = Reply(
        tool_calls=[("submit", '{"initial_setup_py": "import os\n print(1)", "golden_patch_py": ')]
    )
    server.script(GEN, broken)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=1)
    assert outcome.status is TupleStatus.REJECTED and outcome.reject_reason is RejectReason.GENERATOR_ERROR
    [(_, verdict, why, review)] = _rounds(warehouse)
    assert verdict == "FAIL" and "are not valid JSON" in review and "initial_setup_py" in review
    assert _tries(warehouse, "generator") == [(1, "ok", None)]  # the call worked; its content did not


def test_five_megabyte_reply_fails_the_round_without_storing_it(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    server.script(GEN, GOOD_GEN, GOOD_GEN)
    server.script(DISC, Reply(content="x" * 5_000_000), GOOD_DISC)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=2)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 2
    (_, v1, why1, review1), _ = _rounds(warehouse)
    assert (v1, why1) == ("FAIL", "discriminator_error")
    assert "5,000,000 characters long" in review1 and len(review1) < 10_000  # quoted, not stored
    assert "5,000,000 characters long" in _prompt(server, DISC, 1)
    assert _tries(warehouse, "discriminator") == [(1, "ok", None), (2, "ok", None)]


def test_empty_and_truncated_replies_fail_their_rounds(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    server.script(GEN, GOOD_GEN, GOOD_GEN, GOOD_GEN)
    server.script(
        DISC, Reply(content=""), Reply(content="```python\nimport json\n", finish_reason="length"), GOOD_DISC
    )
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=3)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 3
    (_, _, why1, review1), (_, _, why2, review2), (_, v3, _, _) = _rounds(warehouse)
    assert why1 == why2 == "discriminator_error" and v3 == "PASS"
    assert "the reply was empty" in review1 and "cut off at the token limit" in review2


def test_http_500_is_retried_and_a_persistent_one_fails_the_round(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    # Round 1: three 500s use up 1 try + 2 retries; round 2: one 500, then the retry succeeds.
    server.script(GEN, Status(500), Status(500), Status(500), Status(500), GOOD_GEN)
    server.script(DISC, GOOD_DISC)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=2)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 2
    (_, _, why1, review1), _ = _rounds(warehouse)
    assert why1 == "generator_error" and "failed 3 time(s)" in review1 and "server_error" in review1
    assert _tries(warehouse, "generator") == [
        (1, "retry", "server_error"),
        (1, "retry", "server_error"),
        (1, "error", "server_error"),
        (2, "retry", "server_error"),
        (2, "ok", None),
    ]


def test_429_then_success_is_one_round(server, provider, llm_discriminator, warehouse, tmp_path):
    server.script(GEN, Status(429, "slow down", headers={"retry-after": "0"}), GOOD_GEN)
    server.script(DISC, GOOD_DISC)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=1)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 1
    assert _tries(warehouse, "generator") == [(1, "retry", "rate_limited"), (1, "ok", None)]


def test_hung_response_hits_the_timeout_and_fails_the_round(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    server.script(GEN, Hang(30), GOOD_GEN)
    server.script(DISC, GOOD_DISC)
    ctx = make_context(
        server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=2, timeout_s=1.0, max_retries=0
    )
    result = cogenerate(SPEC, load_skill(SKILLS, SPEC.apps), ctx.deps)
    assert result.status is TupleStatus.VERIFIED and len(result.rounds) == 2
    first = result.rounds[0]
    assert first.reject_reason is RejectReason.GENERATOR_ERROR and "timeout" in first.review.markdown
    assert first.timings.generate_s < 5.0  # the 1 s timeout fired; nobody waited for the 30 s hang
    assert server.pending() == 0


def test_reward_scoring_golden_half_fails_and_the_review_names_the_component(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    server.script(GEN, GOOD_GEN, GOOD_GEN)
    server.script(DISC, Reply(tool_calls=[tool("submit", reward_py=HALF_REWARD)]), GOOD_DISC)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=2)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 2
    (_, v1, why1, review1), _ = _rounds(warehouse)
    assert (v1, why1) == ("FAIL", "golden_not_full")
    assert "reward = 0.5000 (expected 1.0)" in review1
    assert "golden_env misses component 'call mom is the first item'" in _prompt(server, DISC, 1)


def test_every_round_failing_rejects_the_tuple_with_all_rounds_kept(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    server.script(GEN, *[Reply(content="I cannot do that.")] * 3)
    outcome = _run(server, provider, llm_discriminator, warehouse, tmp_path, max_rounds=3)
    assert outcome.status is TupleStatus.REJECTED and outcome.reject_reason is RejectReason.GENERATOR_ERROR
    rounds = _rounds(warehouse)
    assert [(r[0], r[1]) for r in rounds] == [(1, "FAIL"), (2, "FAIL"), (3, "FAIL")]
    assert all(Verdict.FAIL.value == r[1] and r[3] for r in rounds)
    assert len(_tries(warehouse, "generator")) == 3


def test_client_is_reused_across_roles_without_leaking_records(server):
    """Records go to the client's own sink only (the Discriminator's never reach the Generator's)."""
    seen: list = []
    client = LLMClient(role_config(server, "judge", "judge"), sink=seen.append)
    server.script("judge", Reply(content="ok"))
    assert client.complete([{"role": "user", "content": "hi"}]).content == "ok"
    assert [r.role for r in seen] == ["judge"]
