"""Judge a round against the five agreement conditions and write its REVIEW.

The REVIEW is what the next round's Generator and Discriminator read, so its feedback names the
failing condition, the component and the evidence (stderr tail, component errors), and says which
side most likely has to change.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from infra.envs.base import ScriptResult
from infra.settings import PROJECT_ROOT
from tasks.models import (
    CONDITION_TEXT,
    Condition,
    ConditionResult,
    Finding,
    Grade,
    RejectReason,
    Review,
    Verdict,
)

PROMPTS_DIR = PROJECT_ROOT / "prompts"


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(PROMPTS_DIR), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)  # fmt: skip
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


def judge_round(
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
    scan_detail = "not scanned" if findings is None else (
        "clean" if not findings else ", ".join(sorted({f.rule for f in findings})))
    conditions = [
        ConditionResult(condition=Condition.SETUP_OK, ok=setup_ok, detail=setup_detail),
        ConditionResult(condition=Condition.PATCH_OK, ok=patch_ok, detail=patch_detail),
        ConditionResult(condition=Condition.GOLDEN_FULL, ok=golden_ok, detail=golden_detail),
        ConditionResult(condition=Condition.INITIAL_ZERO, ok=initial_ok, detail=initial_detail),
        ConditionResult(condition=Condition.SCAN_CLEAN, ok=scan_ok, detail=scan_detail),
    ]
    feedback = _feedback(agent_error, setup_ok, setup_detail, patch_ok, patch_detail, golden, initial, findings)
    reason = _reject_reason(agent_error, setup_ok, patch_ok, golden, initial, golden_ok, initial_ok, scan_ok)
    verdict = Verdict.PASS if reason is None else Verdict.FAIL
    review = Review(verdict=verdict, conditions=conditions, golden=golden, initial=initial,
                    findings=findings or [], feedback=feedback)  # fmt: skip
    return review, reason


def _reject_reason(agent_error, setup_ok, patch_ok, golden, initial, golden_ok, initial_ok, scan_ok):
    if agent_error is not None:
        return agent_error[0]
    if not setup_ok:
        return RejectReason.SETUP_FAILED
    if not patch_ok:
        return RejectReason.PATCH_FAILED
    if any(g is None or g.score is None for g in (golden, initial)):
        return RejectReason.REWARD_CRASHED
    if not scan_ok:
        return RejectReason.FORBIDDEN_PATTERN
    if not golden_ok:
        return RejectReason.GOLDEN_NOT_FULL
    if not initial_ok:
        return RejectReason.INITIAL_NOT_ZERO
    return None


def _feedback(agent_error, setup_ok, setup_detail, patch_ok, patch_detail, golden, initial, findings) -> list[str]:
    items: list[str] = []
    if agent_error is not None:
        items.append(f"{agent_error[0].value}: {agent_error[1]}")
    if not setup_ok and setup_detail != "not run":
        items.append(f"Generator: initial_setup.py must succeed on a fresh env — {setup_detail}.")
    if not patch_ok and patch_detail != "not run":
        items.append(f"Generator: golden_patch.py must apply the solution on top of the initial state — {patch_detail}.")
    for grade, label in ((golden, "golden"), (initial, "initial")):
        if grade is not None and grade.score is None:
            items.append(f"Discriminator: reward.py gave no score on {label}_env — {grade.error}. "
                         "It must print `REWARD: <float>` last and exit 0 when grading completed.")  # fmt: skip
    if golden is not None and golden.score is not None and golden.score < 1.0:
        for comp in golden.components:
            if comp.score < 1.0:
                why = f" (error: {comp.error})" if comp.error else ""
                items.append(f"golden_env misses component '{comp.name}' ({comp.score:.2f} of weight {comp.weight:.2f})"
                             f"{why}: either golden_patch.py does not produce it, or the check is wrong.")  # fmt: skip
        for name in golden.preconditions_failed:
            items.append(f"golden_env fails precondition '{name}': the patch broke the initial world or the check is wrong.")
    if initial is not None and initial.score is not None and initial.score > 0.0:
        for comp in initial.components:
            if comp.score > 0.0:
                items.append(f"initial_env already earns '{comp.name}' ({comp.score:.2f}): what already holds before "
                             "the task is a precondition, not credit — or initial_setup.py did part of the task.")  # fmt: skip
    for f in findings or []:
        items.append(f"Discriminator: forbidden pattern `{f.rule}` at line {f.line}: {f.message}")
    return items


def render_review(review: Review, *, task_id: str, round_no: int, max_rounds: int) -> str:
    return _template().render(review=review, task_id=task_id, round=round_no, max_rounds=max_rounds,
                              condition_text=CONDITION_TEXT)  # fmt: skip
