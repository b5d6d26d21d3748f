"""The adversarial co-generation loop (paper §2, appendix A.1/A.3): up to K rounds per task.

Each round: the Generator writes initial_setup.py and golden_patch.py; two fresh envs are
provisioned; setup runs on both and the patch on golden_env only; the Discriminator — given the
task, the skill, the previous review and the two *state views* — writes reward.py; the static scan
checks it; reward.py grades both envs; the five agreement conditions decide. A failed round's REVIEW
goes to both agents in the next round. Every round is handed to `on_round` as soon as it finishes,
so the caller can persist it before the next one starts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from infra.envs.base import Env, EnvProvider, EnvRole
from infra.errors import CuagymError
from infra.hub.process import HubProcess
from infra.sandbox import Limits
from tasks.agents.base import Discriminator, DiscriminatorRequest, Generator, state_files
from tasks.grading import parse_grade
from tasks.models import (
    MAX_ROUNDS,
    Finding,
    Grade,
    RejectReason,
    Round,
    RoundTimings,
    Scripts,
    TaskSpec,
    TupleStatus,
    Verdict,
)
from tasks.mutation import MutationSettings, run_mutation_tests
from tasks.review import assess_round, judge_mutants, render_review
from tasks.skills import Skill

log = logging.getLogger(__name__)


@dataclass
class CogenDeps:
    """What the loop runs on; built once per flow run and shared by every tuple."""

    provider: EnvProvider
    generator: Generator
    discriminator: Discriminator
    scan: Callable[[str], list[Finding]]
    limits: Limits
    max_rounds: int = MAX_ROUNDS
    hub: HubProcess | None = None  # started for runs with web tasks; stopped by close()
    mutation: MutationSettings | None = None  # None: no mutation stage
    # A procedural Discriminator writes the same reward every round: a surviving mutant then rejects
    # the tuple at once (the family's reward must be fixed at its source). An LLM one gets the
    # survivors as feedback and tries again within the round budget.
    mutants_reject_at_once: bool = True

    def close(self) -> None:
        self.discriminator.close()
        if self.hub is not None:
            self.hub.stop()


@dataclass
class CogenResult:
    status: TupleStatus
    rounds: list[Round]
    reject_reason: RejectReason | None

    @property
    def reward_golden(self) -> float | None:
        last = self.rounds[-1].review.golden if self.rounds else None
        return last.score if last else None

    @property
    def reward_initial(self) -> float | None:
        last = self.rounds[-1].review.initial if self.rounds else None
        return last.score if last else None


class _Clock:
    def __init__(self) -> None:
        self.timings = RoundTimings()
        self._start = time.monotonic()

    def lap(self, field: str, since: float) -> float:
        now = time.monotonic()
        setattr(self.timings, field, round(getattr(self.timings, field) + now - since, 4))
        return now

    def done(self) -> RoundTimings:
        self.timings.total_s = round(time.monotonic() - self._start, 4)
        return self.timings


def _grade(env: Env, reward_py: str, limits: Limits) -> Grade:
    return parse_grade(env.run_script(reward_py, name="reward.py", limits=limits))


def run_round(
    spec: TaskSpec, skill: Skill, deps: CogenDeps, *, attempt: int, number: int, previous_review: str | None
) -> Round:
    """One round, start to verdict. Agent and script failures become a FAIL review, never an exception."""
    clock = _Clock()
    scripts = Scripts()
    setup = patch = None
    golden = initial = None
    findings: list[Finding] | None = None
    agent_error: tuple[RejectReason, str] | None = None
    t = time.monotonic()
    try:
        generated = deps.generator.generate(spec, skill, previous_review, number)
        scripts.initial_setup_py, scripts.golden_patch_py = (
            generated.initial_setup_py,
            generated.golden_patch_py,
        )
    except CuagymError as exc:
        agent_error = (RejectReason.GENERATOR_ERROR, exc.message)
    t = clock.lap("generate_s", t)
    if agent_error is None:
        with ThreadPoolExecutor(max_workers=2) as pool:
            initial_env = deps.provider.provision(spec.id, EnvRole.INITIAL, apps=spec.apps)
            golden_env = deps.provider.provision(spec.id, EnvRole.GOLDEN, apps=spec.apps)
            t = clock.lap("provision_s", t)
            try:
                setup, golden_setup = pool.map(
                    lambda env: env.run_script(
                        scripts.initial_setup_py, name="initial_setup.py", limits=deps.limits
                    ),
                    (initial_env, golden_env),
                )
                t = clock.lap("setup_s", t)
                if setup.ok and golden_setup.ok:
                    patch = golden_env.run_script(
                        scripts.golden_patch_py, name="golden_patch.py", limits=deps.limits
                    )
                elif setup.ok:  # same script, different outcome: report the golden env's failure
                    setup = golden_setup
                t = clock.lap("patch_s", t)
                if setup.ok and patch is not None and patch.ok:
                    golden, initial, findings, agent_error, scripts.reward_py = _discriminate_and_grade(
                        spec, skill, deps, pool, initial_env, golden_env, previous_review, number, clock
                    )
                review, reason = assess_round(
                    setup=setup,
                    patch=patch,
                    golden=golden,
                    initial=initial,
                    findings=findings,
                    agent_error=agent_error,
                )
                if reason is None and deps.mutation is not None:
                    t = time.monotonic()
                    report = run_mutation_tests(
                        spec,
                        scripts.reward_py,
                        initial_env,
                        golden_env,
                        deps.provider,
                        limits=deps.limits,
                        settings=deps.mutation,
                    )
                    reason = judge_mutants(review, report, final=deps.mutants_reject_at_once)
                    clock.lap("mutation_s", t)
            finally:
                initial_env.close()
                golden_env.close()
    else:  # the Generator failed: no env was provisioned
        review, reason = assess_round(
            setup=None, patch=None, golden=None, initial=None, findings=None, agent_error=agent_error
        )
    review.markdown = render_review(review, task_id=spec.id, round_no=number, max_rounds=deps.max_rounds)
    return Round(
        task_id=spec.id,
        attempt=attempt,
        number=number,
        scripts=scripts,
        review=review,
        reject_reason=reason,
        timings=clock.done(),
    )


def _discriminate_and_grade(spec, skill, deps, pool, initial_env, golden_env, previous_review, number, clock):
    t = time.monotonic()
    request = DiscriminatorRequest(
        task=spec,
        skill=skill.text,
        initial_state=initial_env.state_view(),
        golden_state=golden_env.state_view(),
        review=previous_review,
        round=number,
    )
    if getattr(
        deps.discriminator, "wants_files", False
    ):  # e.g. the LLM one reads them and tests rewards on them
        request.initial_files = state_files(initial_env, request.initial_state)
        request.golden_files = state_files(golden_env, request.golden_state)
    try:
        reward_py = deps.discriminator.write_reward(request).reward_py
    except CuagymError as exc:
        clock.lap("discriminate_s", t)
        return None, None, None, (RejectReason.DISCRIMINATOR_ERROR, exc.message), ""
    t = clock.lap("discriminate_s", t)
    findings = deps.scan(reward_py)
    t = clock.lap("scan_s", t)
    golden, initial = pool.map(lambda env: _grade(env, reward_py, deps.limits), (golden_env, initial_env))
    clock.lap("reward_s", t)
    return golden, initial, findings, None, reward_py


def cogenerate(
    spec: TaskSpec,
    skill: Skill,
    deps: CogenDeps,
    *,
    attempt: int = 1,
    on_round: Callable[[Round], None] = lambda r: None,
) -> CogenResult:
    """Rounds until all five conditions hold (verified) or the budget is spent (rejected)."""
    rounds: list[Round] = []
    previous: str | None = None
    for number in range(1, deps.max_rounds + 1):
        rnd = run_round(spec, skill, deps, attempt=attempt, number=number, previous_review=previous)
        rounds.append(rnd)
        on_round(rnd)
        log.debug("%s round %d: %s %s", spec.id, number, rnd.review.verdict, rnd.reject_reason)
        if rnd.review.verdict is Verdict.PASS:
            return CogenResult(TupleStatus.VERIFIED, rounds, None)
        if rnd.reject_reason is RejectReason.MUTANT_SURVIVED and deps.mutants_reject_at_once:
            break
        previous = rnd.review.markdown
    return CogenResult(TupleStatus.REJECTED, rounds, rounds[-1].reject_reason)
