"""Read a reward.py run: the score from its last stdout line, the breakdown line before it."""

from __future__ import annotations

import json
import math
import re

from infra.envs.base import ScriptResult
from tasks.models import ComponentScore, Grade

_REWARD_LINE = re.compile(r"^REWARD:\s*(\S+)\s*$")
_BREAKDOWN_PREFIX = "BREAKDOWN: "


def parse_grade(result: ScriptResult) -> Grade:
    """A Grade whose `score` is None unless the grader completed and printed a valid score last."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    components, pre_failed = _breakdown(lines)
    if result.timed_out:
        return Grade(score=None, exit_code=result.exit_code, error="reward.py timed out", components=components)
    if result.killed_for_memory:
        return Grade(score=None, exit_code=result.exit_code, error="reward.py was killed for memory")
    if result.exit_code != 0:
        tail = result.stderr.strip().splitlines()[-3:]
        return Grade(score=None, exit_code=result.exit_code, components=components,
                     error=f"reward.py exited {result.exit_code}: {' | '.join(tail)[:400]}")  # fmt: skip
    match = _REWARD_LINE.match(lines[-1]) if lines else None
    if match is None:
        last = lines[-1][:120] if lines else "(no output)"
        return Grade(score=None, exit_code=0, components=components,
                     error=f"last stdout line is not `REWARD: <float>`: {last!r}")  # fmt: skip
    try:
        score = float(match.group(1))
    except ValueError:
        score = math.nan
    if not 0.0 <= score <= 1.0:  # NaN fails too
        return Grade(score=None, exit_code=0, components=components,
                     error=f"score {match.group(1)!r} is not a number in [0, 1]")  # fmt: skip
    return Grade(score=score, exit_code=0, components=components, preconditions_failed=pre_failed)


def _breakdown(lines: list[str]) -> tuple[list[ComponentScore], list[str]]:
    for line in reversed(lines):
        if line.startswith(_BREAKDOWN_PREFIX):
            try:
                data = json.loads(line[len(_BREAKDOWN_PREFIX):])
                return ([ComponentScore(**c) for c in data.get("components", [])],
                        [str(p) for p in data.get("preconditions_failed", [])])  # fmt: skip
            except (ValueError, TypeError):
                return [], []
    return [], []
