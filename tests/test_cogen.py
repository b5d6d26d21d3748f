"""The co-generation loop with real sandboxes, a real isolated Discriminator process and scripted
Generators: a Generator that fixes its mistake from the REVIEW, one that never converges, and the
information barrier."""

from __future__ import annotations

import json

import pytest

from infra.envs.base import EnvRole
from infra.sandbox import Limits
from infra.settings import PROJECT_ROOT, get_settings
from tasks.agents.base import DiscriminatorRequest
from tasks.agents.isolation import IsolatedDiscriminator
from tasks.agents.procedural import ProceduralGenerator
from tasks.cogen import CogenDeps, cogenerate
from tasks.models import Condition, RejectReason, TupleStatus, Verdict
from tasks.skills import Skill

from .agents_fixtures import CrashingGenerator, FlakyGenerator, LazyGenerator, crafted_discriminator
from .conftest import SKILLS

SKILL = Skill(("calc",), "test skill", {"calc": "0" * 64})


@pytest.fixture
def discriminator():
    d = IsolatedDiscriminator("procedural", get_settings())
    yield d
    d.close()


def _deps(provider, generator, discriminator, scan=lambda src: []):
    return CogenDeps(
        provider=provider,
        generator=generator,
        discriminator=discriminator,
        scan=scan,
        limits=Limits(timeout_s=60),
    )


def test_generator_fixes_round_one_mistake_from_review(provider, families, discriminator):
    spec = families["calc.padded_ids"].instantiate(3)
    generator = FlakyGenerator(SKILLS)
    result = cogenerate(spec, SKILL, _deps(provider, generator, discriminator))
    assert result.status is TupleStatus.VERIFIED
    assert [r.review.verdict for r in result.rounds] == [Verdict.FAIL, Verdict.PASS]
    first = result.rounds[0]
    assert first.reject_reason is RejectReason.GOLDEN_NOT_FULL
    assert 0.0 < first.review.golden.score < 1.0
    assert "## Verdict: FAIL" in first.review.markdown
    assert "every row refers to its own A cell" in first.review.markdown  # the component that failed
    assert generator.reviews[1] == first.review.markdown  # round 2 was given round 1's REVIEW
    assert result.reward_golden == 1.0 and result.reward_initial == 0.0


def test_never_converging_tuple_is_rejected_after_five_rounds(provider, families, discriminator):
    spec = families["calc.padded_ids"].instantiate(4)
    recorded = []
    result = cogenerate(
        spec, SKILL, _deps(provider, LazyGenerator(SKILLS), discriminator), on_round=recorded.append
    )
    assert result.status is TupleStatus.REJECTED
    assert result.reject_reason is RejectReason.GOLDEN_NOT_FULL
    assert [r.number for r in recorded] == [1, 2, 3, 4, 5]
    assert all(r.review.verdict is Verdict.FAIL and r.review.markdown for r in recorded)
    assert all(r.review.golden.score == 0.0 for r in recorded)


def test_crashing_setup_fails_condition_one_with_stderr(provider, families, discriminator):
    spec = families["calc.padded_ids"].instantiate(5)
    deps = _deps(provider, CrashingGenerator(SKILLS), discriminator)
    deps.max_rounds = 1
    result = cogenerate(spec, SKILL, deps)
    rnd = result.rounds[0]
    assert result.reject_reason is RejectReason.SETUP_FAILED
    setup = next(c for c in rnd.review.conditions if c.condition is Condition.SETUP_OK)
    assert not setup.ok and "disk full" in setup.detail


def test_crashing_reward_is_reported_not_scored(provider, families):
    spec = families["calc.padded_ids"].instantiate(6)
    broken = IsolatedDiscriminator("tests.agents_fixtures:BrokenRewardDiscriminator", get_settings())
    try:
        deps = _deps(provider, ProceduralGenerator(SKILLS), broken)
        deps.max_rounds = 1
        result = cogenerate(spec, SKILL, deps)
    finally:
        broken.close()
    rnd = result.rounds[0]
    assert result.reject_reason is RejectReason.REWARD_CRASHED
    assert rnd.review.golden.score is None and "cannot parse workbook" in rnd.review.golden.error


def test_forbidden_pattern_fails_condition_five(provider, families, discriminator):
    from tasks.models import Finding

    spec = families["calc.padded_ids"].instantiate(7)
    deps = _deps(
        provider,
        ProceduralGenerator(SKILLS),
        discriminator,
        scan=lambda src: [Finding(rule="constant_score", line=1, message="always 1.0")],
    )
    deps.max_rounds = 1
    result = cogenerate(spec, SKILL, deps)
    assert result.reject_reason is RejectReason.FORBIDDEN_PATTERN
    assert "constant_score" in result.rounds[0].review.markdown


def test_discriminator_process_cannot_see_generator_scripts(provider, families, tmp_path):
    """The barrier is enforced by the worker's sandbox: it is handed only the request, and paths
    where the Generator's scripts live do not exist for it."""
    spec = families["calc.padded_ids"].instantiate(8)
    settings = get_settings()
    with provider.provision(spec.id, EnvRole.INITIAL) as env:
        generator_script = env.runs / "peek" / "golden_patch.py"
        generator_script.parent.mkdir(parents=True)
        golden_source = families["calc.padded_ids"].script("golden_patch", spec)
        generator_script.write_text(golden_source)
        in_var = settings.var_dir / "work" / "peek-test" / "golden_patch.py"
        in_var.parent.mkdir(parents=True, exist_ok=True)
        in_var.write_text(golden_source)
        peek = [str(generator_script), str(in_var), str(PROJECT_ROOT / "var"), "/root/.bash_history"]
        spec = spec.model_copy(update={"params": {**spec.params, "peek": peek}})
        view = env.state_view()
        disc = IsolatedDiscriminator("tests.agents_fixtures:PeekingDiscriminator", settings)
        try:
            out = disc.write_reward(
                DiscriminatorRequest(task=spec, skill="s", initial_state=view, golden_state=view)
            )
        finally:
            disc.close()
    notes = json.loads(out.notes)
    assert notes["request_keys"] == [
        "golden_files",
        "golden_state",
        "initial_files",
        "initial_state",
        "review",
        "round",
        "skill",
        "task",
    ]  # *_files: state contents, empty unless asked for
    assert all(v.startswith("DENIED") for v in notes["seen"].values()), notes["seen"]
    assert "REWARD" in out.reward_py or "grade()" in out.reward_py
    assert (
        "def golden_patch"
        not in DiscriminatorRequest(
            task=spec, skill="s", initial_state=view, golden_state=view
        ).model_dump_json()
    )


@pytest.mark.parametrize(
    ("case", "reason", "evidence"),
    [
        (
            "crash_on_initial",
            RejectReason.REWARD_CHECK_ERROR,
            "component 'B2 pads A2 with a TEXT formula' raised AttributeError",
        ),
        (
            "precondition_raises",
            RejectReason.REWARD_CHECK_ERROR,
            "precondition 'the ID column still holds the original numbers, and the names are unchanged' raised KeyError",
        ),
        ("returns_none", RejectReason.REWARD_CHECK_ERROR, "returned None, not a bool or a fraction"),
        ("malformed_breakdown", RejectReason.REWARD_MALFORMED, "the BREAKDOWN line is not valid"),
        ("no_breakdown", RejectReason.REWARD_MALFORMED, "expected one `BREAKDOWN: {json}` line, found 0"),
        (
            "second_reward_line",
            RejectReason.REWARD_MALFORMED,
            "expected exactly one `REWARD: <float>` line, printed last; found 2",
        ),
        ("exits_non_zero", RejectReason.REWARD_CRASHED, "reward.py exited 3"),
    ],
)
def test_a_broken_reward_fails_the_round_with_its_own_reason(provider, families, case, reason, evidence):
    spec = families["calc.padded_ids"].instantiate(9)
    crafted = crafted_discriminator(case)
    try:
        deps = _deps(provider, ProceduralGenerator(SKILLS), crafted)
        deps.max_rounds = 1
        result = cogenerate(spec, SKILL, deps)
    finally:
        crafted.close()
    assert result.status is TupleStatus.REJECTED
    assert result.reject_reason is reason
    review = result.rounds[0].review
    assert evidence in review.markdown, review.markdown
    assert any(evidence in item for item in review.feedback)  # what the next round's Discriminator reads


def test_a_reward_that_ignores_one_of_two_changes_passes_five_conditions_but_not_mutation(provider, families):
    from tasks.mutation import MutationSettings

    spec = families["chat.thread_reply_react"].instantiate(1)
    crafted = crafted_discriminator("ignores_the_reaction")
    try:
        deps = _deps(provider, ProceduralGenerator(SKILLS), crafted)
        deps.max_rounds = 1
        without = cogenerate(spec, SKILL, deps)
        deps.mutation = MutationSettings()
        result = cogenerate(spec, SKILL, deps)
    finally:
        crafted.close()
    assert without.status is TupleStatus.VERIFIED  # the five conditions alone accept it
    assert result.status is TupleStatus.REJECTED
    assert result.reject_reason is RejectReason.MUTANT_SURVIVED
    review = result.rounds[0].review
    assert all(c.ok for c in review.conditions)
    survivors = review.mutation.survivors
    assert survivors and all("reactions" in m.what for m in survivors), [m.what for m in survivors]
    assert "## Mutation testing" in review.markdown and "SURVIVED" in review.markdown
    assert any("gives full credit (1.0) to a mutant" in item for item in review.feedback)


def test_the_faithful_reward_kills_every_mutant(provider, families, discriminator):
    from tasks.mutation import MutationSettings

    spec = families["chat.thread_reply_react"].instantiate(1)
    deps = _deps(provider, ProceduralGenerator(SKILLS), discriminator)
    deps.mutation = MutationSettings()
    result = cogenerate(spec, SKILL, deps)
    assert result.status is TupleStatus.VERIFIED
    report = result.rounds[-1].review.mutation
    assert report.total >= 3 and report.killed == report.total and report.score == 1.0
