"""Read a reward.py run: exactly one `REWARD:` line, printed last, and the `BREAKDOWN:` line before it.

A grade has a score only when the grader completed, every check in its breakdown ran, and its output
follows the contract (tasks/reward_contract.py: a plain decimal in [0, 1] that equals the BREAKDOWN's
weighted components, a BREAKDOWN of the documented shape). Anything else is a `GradeFailure` with the evidence quoted — never a score of
0, because "the checks found the task undone" and "the checker broke" must not look the same.

Example:
    >>> parse_grade(run).score            # a clean run
    0.4
    >>> parse_grade(crashed_check).failure, parse_grade(crashed_check).error
    (<GradeFailure.CHECK_ERROR: 'check_error'>, "component 'B2 pads A2' raised KeyError: 'Sheet1'")
"""

from __future__ import annotations

from infra.envs.base import ScriptResult
from tasks.models import ComponentScore, Grade, GradeFailure, PreconditionResult
from tasks.reward_contract import (
    RewardOutputError,
    check_consistent,
    check_errors,
    output_lines,
    read_breakdown,
    read_score,
)


def parse_grade(result: ScriptResult) -> Grade:
    """The Grade of one reward.py run (see the module docstring)."""
    lines = output_lines(result.stdout)
    crashed = _crash(result)
    try:
        breakdown = read_breakdown(lines)
    except RewardOutputError as exc:
        if crashed:
            return Grade(score=None, exit_code=result.exit_code, error=crashed, failure=GradeFailure.CRASHED)
        return Grade(score=None, exit_code=result.exit_code, error=str(exc), failure=GradeFailure.MALFORMED)
    partial = {
        "exit_code": result.exit_code,
        "components": [ComponentScore(**c) for c in breakdown.components],
        "preconditions": [PreconditionResult(**p) for p in breakdown.preconditions],
        "preconditions_failed": breakdown.failed,
    }
    if crashed:
        return Grade(score=None, error=crashed, failure=GradeFailure.CRASHED, **partial)
    if broken := check_errors(breakdown):
        return Grade(score=None, error=broken, failure=GradeFailure.CHECK_ERROR, **partial)
    try:
        score = check_consistent(read_score(lines), breakdown)
    except RewardOutputError as exc:
        return Grade(score=None, error=str(exc), failure=GradeFailure.MALFORMED, **partial)
    return Grade(score=score, **partial)


def _crash(result: ScriptResult) -> str | None:
    if result.timed_out:
        return "reward.py timed out"
    if result.killed_for_memory:
        return "reward.py was killed for memory"
    if result.exit_code != 0:
        tail = result.stderr.strip().splitlines()[-3:]
        return f"reward.py exited {result.exit_code}: {' | '.join(tail)[:400]}"
    return None
