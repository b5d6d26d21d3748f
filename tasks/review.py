"""Judge a round against the five agreement conditions and write its REVIEW.

The REVIEW is what the next round's Generator and Discriminator read, so its feedback names the
failing condition, the component and the evidence (stderr tail, component errors), and says which
side most likely has to change.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from infra.envs.base import ScriptResult
from infra.templates import PROMPTS_DIR
from tasks.models import (
    CONDITION_TEXT,
    Condition,
    ConditionResult,
    Finding,
    Grade,
    GradeFailure,
    MutationReport,
    RejectReason,
    Review,
    Verdict,
)


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env.get_template("review.md.j2")


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])[-600:]


def _script_detail(name: str, run: ScriptResult | None) -> tuple[bool, str]:
    if run is None:
        return False, "not run"
    if run.timed_out:
        return False, f"{name} timed out after {run.duration_s:.1f} s"
    if run.killed_for_memory:
        return False, f"{name} was killed for exceeding its memory cap"
    if run.exit_code != 0:
        return False, f"{name} exited {run.exit_code}: {_tail(run.stderr)}"
    return True, f"exit 0 in {run.duration_s:.2f} s"


def _grade_detail(grade: Grade | None, expected: float) -> tuple[bool, str]:
    if grade is None:
        return False, "not evaluated"
    if grade.score is None:
        return False, f"no score: {grade.error}"
    return grade.score == expected, f"reward = {grade.score:.4f} (expected {expected:.1f})"


def assess_round(
    *,
    setup: ScriptResult | None,
    patch: ScriptResult | None,
    golden: Grade | None,
    initial: Grade | None,
    findings: list[Finding] | None,
    agent_error: tuple[RejectReason, str] | None = None,
) -> tuple[Review, RejectReason | None]:
    """The round's Review (verdict, condition table, feedback) and its main reject reason."""
    setup_ok, setup_detail = _script_detail("initial_setup.py", setup)
    patch_ok, patch_detail = _script_detail("golden_patch.py", patch)
    golden_ok, golden_detail = _grade_detail(golden, 1.0)
    initial_ok, initial_detail = _grade_detail(initial, 0.0)
    scan_ok = findings is not None and not findings
    scan_detail = (
        "not scanned"
        if findings is None
        else ("clean" if not findings else ", ".join(sorted({f.rule for f in findings})))
    )
    conditions = [
        ConditionResult(condition=Condition.SETUP_OK, ok=setup_ok, detail=setup_detail),
        ConditionResult(condition=Condition.PATCH_OK, ok=patch_ok, detail=patch_detail),
        ConditionResult(condition=Condition.GOLDEN_FULL, ok=golden_ok, detail=golden_detail),
        ConditionResult(condition=Condition.INITIAL_ZERO, ok=initial_ok, detail=initial_detail),
        ConditionResult(condition=Condition.SCAN_CLEAN, ok=scan_ok, detail=scan_detail),
    ]
    feedback = _feedback(
        agent_error, setup_ok, setup_detail, patch_ok, patch_detail, golden, initial, findings
    )
    reason = _reject_reason(agent_error, setup_ok, patch_ok, golden, initial, golden_ok, initial_ok, scan_ok)
    verdict = Verdict.PASS if reason is None else Verdict.FAIL
    review = Review(
        verdict=verdict,
        conditions=conditions,
        golden=golden,
        initial=initial,
        findings=findings or [],
        feedback=feedback,
    )
    return review, reason


# When both states fail, the most specific reason wins: a broken check before a malformed output.
_FAILURE_REASONS = (
    (GradeFailure.CHECK_ERROR, RejectReason.REWARD_CHECK_ERROR),
    (GradeFailure.MALFORMED, RejectReason.REWARD_MALFORMED),
    (GradeFailure.CRASHED, RejectReason.REWARD_CRASHED),
)


def _reject_reason(agent_error, setup_ok, patch_ok, golden, initial, golden_ok, initial_ok, scan_ok):
    if agent_error is not None:
        return agent_error[0]
    if not setup_ok:
        return RejectReason.SETUP_FAILED
    if not patch_ok:
        return RejectReason.PATCH_FAILED
    if any(g is None or g.score is None for g in (golden, initial)):
        failures = {g.failure for g in (golden, initial) if g is not None}
        for failure, reason in _FAILURE_REASONS:
            if failure in failures:
                return reason
        return RejectReason.REWARD_CRASHED
    if not scan_ok:
        return RejectReason.FORBIDDEN_PATTERN
    if not golden_ok:
        return RejectReason.GOLDEN_NOT_FULL
    if not initial_ok:
        return RejectReason.INITIAL_NOT_ZERO
    return None


def _feedback(
    agent_error, setup_ok, setup_detail, patch_ok, patch_detail, golden, initial, findings
) -> list[str]:
    items: list[str] = []
    if agent_error is not None:
        items.append(f"{agent_error[0].value}: {agent_error[1]}")
    if not setup_ok and setup_detail != "not run":
        items.append(f"Generator: initial_setup.py must succeed on a fresh env — {setup_detail}.")
    if not patch_ok and patch_detail != "not run":
        items.append(
            f"Generator: golden_patch.py must apply the solution on top of the initial state — {patch_detail}."
        )
    for grade, label in ((golden, "golden"), (initial, "initial")):
        if grade is not None and grade.score is None:
            items.append(
                f"Discriminator: reward.py gave no score on {label}_env — {grade.error}. {_FIX[grade.failure]}"
            )
    if golden is not None and golden.score is not None and golden.score < 1.0:
        for comp in golden.components:
            if comp.score < 1.0:
                why = f" (error: {comp.error})" if comp.error else ""
                items.append(
                    f"golden_env misses component '{comp.name}' ({comp.score:.2f} of weight {comp.weight:.2f})"
                    f"{why}: either golden_patch.py does not produce it, or the check is wrong."
                )
        for name in golden.preconditions_failed:
            items.append(
                f"golden_env fails precondition '{name}': the patch broke the initial world or the check is wrong."
            )
    if initial is not None and initial.score is not None and initial.score > 0.0:
        for comp in initial.components:
            if comp.score > 0.0:
                items.append(
                    f"initial_env already earns '{comp.name}' ({comp.score:.2f}): what already holds before "
                    "the task is a precondition, not credit — or initial_setup.py did part of the task."
                )
    for f in findings or []:
        items.append(f"Discriminator: forbidden pattern `{f.rule}` at line {f.line}: {f.message}")
    return items


def judge_mutants(review: Review, report: MutationReport, *, final: bool) -> RejectReason | None:
    """Attach the mutation stage to a passing round's review; a stage that could not test the reward
    (MutationReport.stage_failure) or a surviving mutant fails the round."""
    review.mutation = report
    failure = report.stage_failure()
    if failure is None and not report.survivors:
        return None
    review.verdict = Verdict.FAIL
    if failure is not None:
        review.feedback.append(f"{failure[0].value}: {failure[1]}. {_STAGE_FIX[failure[0]]}")
    for mutant in report.survivors[:8]:
        review.feedback.append(
            f"Discriminator: reward.py gives full credit (1.0) to a mutant of the golden state that lacks part "
            f"of the task — {mutant.what} ({mutant.kind}, {mutant.path}). Every required change must be "
            "checked, and what the task forbids must lose credit."
        )
    if final and report.survivors:
        review.feedback.append(
            "The family's procedural reward is too weak for this mutant: fix its reward in skills/ (the same "
            "reward would be written again every round)."
        )
    if failure is not None:  # the stage's own failure first: survivors of a partial stage prove little
        return failure[0]
    return RejectReason.MUTANT_SURVIVED


_STAGE_FIX = {
    RejectReason.MUTATION_ERROR: "The reward could not be mutation-tested, so the round cannot pass: "
    "Generator, keep the states to ordinary files and folders a person could make (no paths past 4,096 "
    "bytes, no unreadable files).",
    RejectReason.MUTATION_TRUNCATED: "The reward could not be mutation-tested on the whole state: Generator, "
    "keep the homes small and shallow (at most 20,000 entries, paths under 4,096 bytes, every file readable).",
    RejectReason.MUTANTS_SKIPPED: "Too many mutants could not be built or graded to trust the reward: "
    "Generator, keep the states to ones the apps accept and a home copy can hold.",
}


_FIX = {
    GradeFailure.CHECK_ERROR: "A check that raises is a broken grader, not a zero: make every check run on "
    "every state the task can reach (guard what may be absent, and let a missing output read as undone).",
    GradeFailure.MALFORMED: "It must print one `BREAKDOWN: {json}` line (rewardkit's grade() does) and exactly "
    "one `REWARD: <float in [0,1]>` line, last, from its own main path.",
    GradeFailure.CRASHED: "It must exit 0 whenever grading completed, within its time and memory limits.",
    None: "It must print `REWARD: <float>` last and exit 0 when grading completed.",
}


def render_review(review: Review, *, task_id: str, round_no: int, max_rounds: int) -> str:
    return _template().render(
        review=review, task_id=task_id, round=round_no, max_rounds=max_rounds, condition_text=CONDITION_TEXT
    )
