"""One family instance under the quality flow, in the local sandbox: the endpoints (initial -> 0.0,
golden -> 1.0), every named mistake as a near miss (strictly between 0 and 1), and the mutation
stage over the same initial and golden envs co-generation builds (tasks/mutation).

The unit suite checks all of this on seed 0 only; here it runs on as many seeds as the flow is given,
which is where a reward that is weak only for some draws shows (a surviving mutant on seed 13)."""

from __future__ import annotations

import time

from infra.envs.base import EnvRole
from infra.envs.local import LocalEnv, LocalProvider
from infra.errors import CuagymError
from infra.sandbox import Limits
from skills.kit import Family
from tasks.grading import parse_grade
from tasks.models import MutationReport, SeedQuality, TaskSpec
from tasks.mutation import MutationSettings, run_mutation_tests

SCRIPT_LIMITS = Limits(timeout_s=120.0, memory_mb=2048)
MUTANT_LIMITS = Limits(timeout_s=60.0)  # as co-generation grades its mutants


class InstanceSetupError(CuagymError):
    """A family's own script failed on an instance: recorded on its row, never raised out of it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, hint="run the instance's scripts with `cuagym env run` to see why")


def check_instance(
    family: Family, seed: int, provider: LocalProvider, mutation: MutationSettings | None = None
) -> SeedQuality:
    """Endpoints, near misses and mutants of `family` at `seed`; what could not be checked is in
    `error` (the row is still written, so a broken seed is seen, not lost)."""
    spec = family.instantiate(seed)
    row = SeedQuality(family=family.id, app=family.apps[0], seed=seed, task_id=spec.id)
    started = time.monotonic()
    reward_py = family.script("reward", spec)
    try:
        with (
            provider.provision(spec.id, EnvRole.INITIAL, apps=spec.apps) as initial,
            provider.provision(spec.id, EnvRole.GOLDEN, apps=spec.apps) as golden,
        ):
            for env in (initial, golden):
                _run(env, "initial_setup.py", family.script("initial_setup", spec))
            _run(golden, "golden_patch.py", family.script("golden_patch", spec))
            row.reward_initial = _score(initial, reward_py)
            row.reward_golden = _score(golden, reward_py)
            report = run_mutation_tests(
                spec, reward_py, initial, golden, provider, limits=MUTANT_LIMITS, settings=mutation
            )
        _record_mutants(row, report)
        _check_mistakes(row, family, spec, provider, reward_py)
    except InstanceSetupError as exc:  # kept next to a mutation-stage error already found
        row.error = "; ".join(filter(None, [row.error, exc.message]))
    row.mutation_s = round(time.monotonic() - started, 3)
    return row


def _run(env: LocalEnv, name: str, source: str) -> None:
    result = env.run_script(source, name=name)
    if not result.ok:
        raise InstanceSetupError(f"{name} failed (exit {result.exit_code}): {result.stderr[-400:].strip()}")


def _score(env: LocalEnv, reward_py: str) -> float | None:
    grade = parse_grade(env.run_script(reward_py, name="reward.py"))
    if grade.score is None:
        raise InstanceSetupError(f"reward.py gave no score: {grade.error}")
    return grade.score


def _record_mutants(row: SeedQuality, report: MutationReport) -> None:
    row.mutants, row.killed, row.skipped = report.total, report.killed, report.skipped_mutants
    row.survivors = [f"{m.id}: {m.what}" for m in report.survivors]
    failure = report.stage_failure()
    if failure:  # a stage that could not test the reward never passes for want of mutants
        row.error = f"mutation stage: {failure[0].value}: {failure[1]}"


def _check_mistakes(
    row: SeedQuality, family: Family, spec: TaskSpec, provider: LocalProvider, reward_py
) -> None:
    """Each named mistake on a fresh env: setup, the near-miss patch, the reward."""
    for mistake in family.mistakes:
        row.mistakes += 1
        with provider.provision(spec.id, EnvRole.DEBUG, apps=spec.apps) as env:
            _run(env, "initial_setup.py", family.script("initial_setup", spec))
            _run(env, "golden_patch.py", family.script("near_miss", spec, mistake=mistake))
            score = _score(env, reward_py)
        row.mistakes_told += score is not None and 0.0 < score < 1.0
