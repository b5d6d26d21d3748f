"""Read a reward.py run: exactly one `REWARD:` line, printed last, and the `BREAKDOWN:` line before it.

A grade has a score only when the grader completed, every check in its breakdown ran, and its output
follows the contract. Anything else is a `GradeFailure` with the evidence quoted — never a score of
0, because "the checks found the task undone" and "the checker broke" must not look the same.

Example:
    >>> parse_grade(run).score            # a clean run
    0.4
    >>> parse_grade(crashed_check).failure, parse_grade(crashed_check).error
    (<GradeFailure.CHECK_ERROR: 'check_error'>, "component 'B2 pads A2' raised KeyError: 'Sheet1'")
"""

from __future__ import annotations

import json
import math
import re

from pydantic import ValidationError

from infra.envs.base import ScriptResult
from tasks.models import CheckStatus, ComponentScore, Grade, GradeFailure, PreconditionResult

_REWARD_LINE = re.compile(r"^REWARD:\s*(\S+)\s*$")
_BREAKDOWN_PREFIX = "BREAKDOWN: "


class _Malformed(ValueError):
    pass


def parse_grade(result: ScriptResult) -> Grade:
    """The Grade of one reward.py run (see the module docstring)."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    crashed = _crash(result)
    try:
        components, preconditions = _breakdown(lines)
    except _Malformed as exc:
        if crashed:
            return Grade(score=None, exit_code=result.exit_code, error=crashed, failure=GradeFailure.CRASHED)
        return _malformed(result, str(exc))
    failed = [p.name for p in preconditions if not p.held]
    partial = {
        "exit_code": result.exit_code,
        "components": components,
        "preconditions": preconditions,
        "preconditions_failed": failed,
    }
    if crashed:
        return Grade(score=None, error=crashed, failure=GradeFailure.CRASHED, **partial)
    if broken := _check_errors(components, preconditions):
        return Grade(score=None, error=broken, failure=GradeFailure.CHECK_ERROR, **partial)
    try:
        score = _score(lines)
    except _Malformed as exc:
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


def _malformed(result: ScriptResult, why: str) -> Grade:
    return Grade(score=None, exit_code=result.exit_code, error=why, failure=GradeFailure.MALFORMED)


def _breakdown(lines: list[str]) -> tuple[list[ComponentScore], list[PreconditionResult]]:
    found = [line for line in lines if line.startswith(_BREAKDOWN_PREFIX)]
    if len(found) != 1:
        raise _Malformed(f"expected one `BREAKDOWN: {{json}}` line, found {len(found)}")
    try:
        data = json.loads(found[0][len(_BREAKDOWN_PREFIX) :])
        components = [ComponentScore(**c) for c in data["components"]]
        preconditions = [PreconditionResult(**p) for p in data.get("preconditions", [])]
    except (ValueError, TypeError, KeyError, ValidationError) as exc:
        raise _Malformed(f"the BREAKDOWN line is not valid: {type(exc).__name__}: {str(exc)[:300]}") from None
    if not components:
        raise _Malformed("the BREAKDOWN lists no components")
    return components, preconditions


def _check_errors(components: list[ComponentScore], preconditions: list[PreconditionResult]) -> str | None:
    errors = [
        f"component {c.name!r} raised {c.error}" for c in components if c.status is CheckStatus.CHECK_ERROR
    ]
    errors += [
        f"precondition {p.name!r} raised {p.error}"
        for p in preconditions
        if p.status is CheckStatus.CHECK_ERROR
    ]
    return "; ".join(errors)[:1000] or None


def _score(lines: list[str]) -> float:
    rewards = [i for i, line in enumerate(lines) if line.startswith("REWARD:")]
    if len(rewards) != 1 or rewards[0] != len(lines) - 1:
        last = lines[-1][:120] if lines else "(no output)"
        raise _Malformed(
            f"expected exactly one `REWARD: <float>` line, printed last; found {len(rewards)}, "
            f"last line {last!r}"
        )
    match = _REWARD_LINE.match(lines[-1])
    try:
        score = float(match.group(1)) if match else math.nan
    except ValueError:
        score = math.nan
    if not 0.0 <= score <= 1.0:  # NaN fails too
        raise _Malformed(f"score {lines[-1][8:].strip()[:40]!r} is not a number in [0, 1]")
    return score
