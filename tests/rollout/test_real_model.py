"""The LLM path against a real model, not a fake: SmolLM2-135M-Instruct from PyPI (converted once into
var/models), served on 127.0.0.1 by `transformers serve`, called through litellm like any provider.

Its replies are not scripted, so the tests assert what must hold whatever the model writes: one
co-generation round ends with a verdict and a reason in the warehouse (never a crash, never a hang
past the role's timeout), a critic vote is a decision or an error vote that says why, and one
`llm`-policy step on a real desktop records the model's reply as an executed or a failed step.
"""

from __future__ import annotations

import pytest

from flows.rollout import rollout_flow
from infra.llm import LLMClient
from infra.llm_config import RoleConfig
from infra.local_model import prepare, serve
from infra.sandbox import Limits
from infra.settings import Settings
from infra.trajectories import read_trajectories
from tasks.agents.llm_generator import LLMGenerator
from tasks.cogen import CogenDeps
from tasks.llm_roles import WarehouseCallSink, build_llm_discriminator
from tasks.models import (
    Provenance,
    RejectReason,
    Review,
    RolloutParams,
    Round,
    Scripts,
    SynthParams,
    TupleStatus,
    Verdict,
)
from tasks.scan import scan_source
from tasks.synthesize import TupleContext, synthesize_tuple
from tasks.vote import DECISIONS, TupleCritic
from tests.llm.conftest import PATCH, REWARD, SETUP, SPEC
from warehouse.query import run_query
from warehouse.store import Warehouse

from ..conftest import SKILLS
from .conftest import export_bundle

pytestmark = pytest.mark.slow

REPLY_TOKENS = 192  # ~20 s a reply on two busy cores; enough for a short script or a tool call
TIMEOUT_S = 240.0


@pytest.fixture(scope="module")
def real_model(tmp_path_factory):
    checkpoint = prepare("smollm2-135m", Settings().models_dir)
    with serve(checkpoint, log_path=tmp_path_factory.mktemp("model-server") / "server.log") as served:
        yield served


def _role(served, role: str) -> RoleConfig:
    return RoleConfig(
        role=role,
        model=served.model,
        api_base=served.api_base,
        timeout_s=TIMEOUT_S,
        max_retries=0,
        max_tokens=REPLY_TOKENS,
    )


def test_a_cogeneration_round_and_a_critic_vote_on_the_real_model(
    real_model, provider, tmp_path, guest_python, monkeypatch
):
    for name, value in (("MAX_TOKENS", REPLY_TOKENS), ("TIMEOUT_S", TIMEOUT_S), ("MAX_RETRIES", 0)):
        monkeypatch.setenv(f"CUAGYM_LLM_{name}", str(value))  # the Discriminator's worker resolves its role
    settings = Settings(var_dir=tmp_path / "var", output_dir=tmp_path / "out", guest_venv=guest_python)
    warehouse = Warehouse(tmp_path / "warehouse.duckdb")
    warehouse.start_run("run-real", backend="llm", seed=1, git_rev="test", params={})
    warehouse.save_specs("run-real", [SPEC.model_dump(mode="json")])
    sink = WarehouseCallSink(warehouse, "run-real")
    params = SynthParams(
        backend="llm", discriminator_model=real_model.model, api_base=real_model.api_base, agent_steps=2
    )
    discriminator = build_llm_discriminator(params, settings, sink=sink)
    generator = LLMGenerator(LLMClient(_role(real_model, "generator"), sink=sink), provider, max_steps=2)
    ctx = TupleContext(
        warehouse=warehouse,
        deps=CogenDeps(
            provider=provider,
            generator=generator,
            discriminator=discriminator,
            scan=scan_source,
            limits=Limits(timeout_s=60),
            max_rounds=1,
        ),
        skills_dir=SKILLS,
        final_dir=tmp_path / "final",
        run_id="run-real",
        provenance=Provenance(backend="llm", run_id="run-real"),
    )
    try:
        outcome = synthesize_tuple(SPEC, ctx)
    finally:
        discriminator.close()

    # whatever it wrote, the round ended with a verdict and, failed, a reason a person can read
    assert outcome.rounds == 1 and outcome.reject_reason is not RejectReason.INTERNAL_ERROR, outcome
    warehouse.refresh_snapshot(force=True)
    ((verdict, reason, review_md),) = run_query(
        warehouse.path, f"SELECT verdict, reject_reason, review_md FROM rounds WHERE task_id = '{SPEC.id}'"
    ).rows
    if outcome.status is TupleStatus.REJECTED:
        assert verdict == "FAIL" and reason and len(review_md.strip()) > 40, (reason, review_md)
    calls = run_query(
        warehouse.path,
        "SELECT role, status, input_tokens, output_tokens, latency_s, error FROM llm_calls ORDER BY started_at",
    ).rows
    answered = [c for c in calls if c[1] == "ok"]
    assert answered and answered[0][0] == "generator", calls
    # real prompts (the files SKILL.md, the role's rules) and real generated tokens, timed
    assert all(c[2] > 1_000 and c[3] > 0 and c[4] > 0 for c in answered), answered
    assert all(c[5] for c in calls if c[1] != "ok"), "every failed call says why"
    assert max(c[4] for c in calls) < TIMEOUT_S + 30

    # one critic vote on a sound tuple: a decision, or an error vote quoting what was wrong
    rnd = Round(
        task_id=SPEC.id,
        attempt=1,
        number=1,
        scripts=Scripts(initial_setup_py=SETUP, golden_patch_py=PATCH, reward_py=REWARD),
        review=Review(verdict=Verdict.PASS, conditions=[], markdown="# REVIEW\ninitial 0.0, golden 1.0"),
    )
    (vote,) = TupleCritic(LLMClient(_role(real_model, "critic")), 1).vote(SPEC, rnd).votes
    assert vote.decision in (*DECISIONS, "error") and vote.model == real_model.model
    if vote.decision == "error":
        assert vote.reason, vote


def test_one_llm_policy_step_on_a_desktop_with_the_real_reply(
    real_model, prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    bundle = export_bundle(families, "calc.padded_ids", 1, tmp_path / "final")
    summary = rollout_flow(
        RolloutParams(
            bundles=[str(bundle)],
            policy="llm",
            model=real_model.model,
            api_base=real_model.api_base,
            model_family="openai",  # tools in the request; the server parses the model's <tool_call>s
            max_steps=1,
            max_tokens=REPLY_TOKENS,
            out=str(tmp_path / "dataset"),
        )
    )
    assert len(summary.outcomes) == 1 and not summary.skipped
    (trajectory,) = read_trajectories(tmp_path / "dataset")
    assert trajectory.model == real_model.model and trajectory.reward_error is None
    assert trajectory.reward is not None and 0.0 <= trajectory.reward <= 1.0
    assert trajectory.steps, "the model's one step is recorded"
    for step in trajectory.steps:
        assert step.assistant_raw.strip(), "the step holds what the model wrote"
        assert step.ok or (step.action == "invalid" and step.error), step
