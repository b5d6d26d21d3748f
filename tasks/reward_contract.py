"""What a reward.py run must print for its score to count (DESIGN.md §3.1), in one stdlib-only file.

tasks/grading.py reads every run with these functions, and the OSWorld export ships this very file
as its evaluator (`python3 -c <this source + a call to osworld_verdict>`), so vanilla OSWorld and
cuagym accept the same outputs. Hence: the standard library only, Python 3.10 (OSWorld's Ubuntu
22.04 guest), and no import from the package.

The output, blank lines ignored:
- exactly one `BREAKDOWN: {json}` line (the schema is `read_breakdown`'s, README "The BREAKDOWN");
- exactly one `REWARD: <score>` line, printed last, where <score> is a plain ASCII decimal in
  [0, 1] (`0`, `0.25`, `1.0`; no sign, exponent, `_`, non-ASCII digit, or more digits than a float
  holds);
- the score equals the BREAKDOWN's weighted mean — sum(weight * score) / sum(weight) over the
  components, or 0 when a precondition failed — within SCORE_TOLERANCE.

Example:
    >>> lines = output_lines('BREAKDOWN: {"components": [{"name": "a", "weight": 1, "score": 1}]}\\n'
    ...                      "REWARD: 1.0\\n")
    >>> check_consistent(read_score(lines), read_breakdown(lines))
    1.0
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from dataclasses import dataclass, field
from decimal import Decimal

BREAKDOWN_PREFIX = "BREAKDOWN: "
REWARD_PREFIX = "REWARD:"
# rewardkit prints every component's score and the total rounded to 4 decimals, so an honest REWARD
# is within 1e-4 of the weighted mean of the scores it printed; the other 1e-4 is float slack.
SCORE_TOLERANCE = 2e-4
STATUSES = ("ok", "missing_output", "invalid_output", "check_error")
# [0-9], never \d: in a str pattern \d also matches "１" and "١", which float() reads as digits.
_SCORE = re.compile(r"[01](?:\.[0-9]+)?")
_REWARD_LINE = re.compile(r"REWARD:[ \t]*(\S*)[ \t]*")
_TOP_KEYS = ("components", "preconditions", "preconditions_failed")
_COMPONENT_KEYS = ("name", "weight", "score", "status", "error")
_PRECONDITION_KEYS = ("name", "held", "status", "error")

# What the OSWorld evaluator's command prints: exact_match compares its whole stdout with PASS.
OSWORLD_PASS = "cuagym verdict: full reward"
OSWORLD_FAIL = "cuagym verdict: not full reward"
OSWORLD_TIMEOUT_S = 110.0  # under the 120 s OSWorld's server gives one /execute


class RewardOutputError(ValueError):
    """The output breaks the contract; the message says what was expected and what was found."""


@dataclass
class Breakdown:
    """A validated BREAKDOWN: plain dicts with every optional key filled in."""

    components: list = field(default_factory=list)
    preconditions: list = field(default_factory=list)
    failed: list = field(default_factory=list)  # names of the preconditions that did not hold


def output_lines(stdout: str) -> list:
    return [line for line in stdout.splitlines() if line.strip()]


def read_breakdown(lines: list) -> Breakdown:
    """The one `BREAKDOWN: {json}` line, validated; RewardOutputError names the first bad field."""
    found = [line for line in lines if line.startswith(BREAKDOWN_PREFIX)]
    if len(found) != 1:
        raise RewardOutputError(f"expected one `BREAKDOWN: {{json}}` line, found {len(found)}")
    text = found[0][len(BREAKDOWN_PREFIX) :]
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except RewardOutputError as exc:
        raise _invalid(str(exc)) from None
    except ValueError as exc:
        raise _invalid(f"expected a JSON object, found invalid JSON ({exc}): {text[:120]!r}") from None
    return _validate(data)


def read_score(lines: list) -> float:
    """The score on the last line, which must be the only `REWARD:` line."""
    rewards = [i for i, line in enumerate(lines) if line.startswith(REWARD_PREFIX)]
    if len(rewards) != 1 or rewards[0] != len(lines) - 1:
        last = lines[-1][:120] if lines else "(no output)"
        raise RewardOutputError(
            f"expected exactly one `REWARD: <float>` line, printed last; found {len(rewards)}, "
            f"last line {last!r}"
        )
    match = _REWARD_LINE.fullmatch(lines[-1])
    if not match:  # e.g. a non-ASCII space around the score
        raise RewardOutputError(f"expected the last line to be `REWARD: <score>`, found {lines[-1][:120]!r}")
    return parse_score(match.group(1))


def parse_score(text: str) -> float:
    """A plain ASCII decimal in [0, 1] whose digits a float holds exactly as printed."""
    expected = "a plain decimal in [0, 1] such as 0, 0.25 or 1.0 (ASCII digits; no sign or exponent)"
    if not _SCORE.fullmatch(text):
        raise RewardOutputError(f"score {text[:40]!r} is not {expected}")
    value = float(text)
    if value > 1.0:
        raise RewardOutputError(f"score {text[:40]!r} is above 1; expected {expected}")
    # 0.99999999999999999 would read as 1.0: the line must mean the number it is graded as.
    if Decimal(text) != Decimal(repr(value)):
        raise RewardOutputError(
            f"score {text[:40]!r} has more digits than a float holds (it would read as {value!r}); "
            "print it rounded, e.g. round(score, 4)"
        )
    return value


def weighted_score(breakdown: Breakdown) -> float:
    """What the REWARD must be: 0 when a precondition failed, else the components' weighted mean."""
    if breakdown.failed:
        return 0.0
    total = sum(c["weight"] for c in breakdown.components)
    return sum(c["weight"] * c["score"] for c in breakdown.components) / total


def check_consistent(score: float, breakdown: Breakdown) -> float:
    """The score, if it is the BREAKDOWN's weighted score within SCORE_TOLERANCE."""
    expected = weighted_score(breakdown)
    if abs(score - expected) > SCORE_TOLERANCE:
        why = f"precondition(s) {breakdown.failed} failed" if breakdown.failed else "the weighted mean"
        raise RewardOutputError(
            f"REWARD {score!r} does not match its BREAKDOWN: expected {expected:.4f} ({why} of "
            f"the components, within {SCORE_TOLERANCE}), found {score!r}"
        )
    return score


def check_errors(breakdown: Breakdown) -> str | None:
    """Every check that raised, or None: such a grade is a broken grader, never a score."""
    errors = [
        f"component {c['name']!r} raised {c['error']}"
        for c in breakdown.components
        if c["status"] == "check_error"
    ]
    errors += [
        f"precondition {p['name']!r} raised {p['error']}"
        for p in breakdown.preconditions
        if p["status"] == "check_error"
    ]
    return "; ".join(errors)[:1000] or None


def _invalid(why: str) -> RewardOutputError:
    return RewardOutputError(f"the BREAKDOWN line is not valid: {why}")


def _unique_keys(pairs: list) -> dict:
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise RewardOutputError(f"expected unique keys in every object, found {key!r} twice")
        seen[key] = value
    return seen


def _kind(value) -> str:
    return "null" if value is None else type(value).__name__


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _closed(obj, where: str, keys: tuple, required: tuple) -> None:
    if not isinstance(obj, dict):
        raise _invalid(f"{where}: expected an object, found {_kind(obj)} {str(obj)[:60]!r}")
    optional = [key for key in keys if key not in required]
    expected = f"expected the keys {list(required)} and optionally {optional}"
    missing = [key for key in required if key not in obj]
    if missing:
        raise _invalid(f"{where}: {expected}, found {sorted(obj)} (missing {missing})")
    unknown = sorted(set(obj) - set(keys))
    if unknown:
        raise _invalid(f"{where}: {expected}, found {sorted(obj)} (unknown {unknown})")


def _status(obj: dict, where: str) -> str:
    status = obj.get("status", "ok")
    if status not in STATUSES:
        raise _invalid(f"{where}.status: expected one of {list(STATUSES)}, found {status!r}")
    error = obj.get("error")
    if error is not None and not isinstance(error, str):
        raise _invalid(f"{where}.error: expected a string or null, found {_kind(error)}")
    return status


def _name(obj: dict, where: str) -> str:
    if not isinstance(obj["name"], str) or not obj["name"].strip():
        raise _invalid(f"{where}.name: expected a non-empty string, found {obj['name']!r}")
    return obj["name"]


def _component(obj, where: str) -> dict:
    _closed(obj, where, _COMPONENT_KEYS, ("name", "weight", "score"))
    weight, score = obj["weight"], obj["score"]
    if not _is_number(weight) or not math.isfinite(weight) or weight <= 0:
        raise _invalid(f"{where}.weight: expected a finite number > 0, found {weight!r}")
    if not _is_number(score) or not 0.0 <= score <= 1.0:  # NaN fails the range too
        raise _invalid(f"{where}.score: expected a number in [0, 1], found {score!r}")
    return {
        "name": _name(obj, where),
        "weight": float(weight),
        "score": float(score),
        "status": _status(obj, where),
        "error": obj.get("error"),
    }


def _precondition(obj, where: str) -> dict:
    _closed(obj, where, _PRECONDITION_KEYS, ("name", "held"))
    if not isinstance(obj["held"], bool):
        raise _invalid(f"{where}.held: expected true or false, found {obj['held']!r}")
    return {
        "name": _name(obj, where),
        "held": obj["held"],
        "status": _status(obj, where),
        "error": obj.get("error"),
    }


def _validate(data) -> Breakdown:
    _closed(data, "the top-level object", _TOP_KEYS, ("components",))
    components, preconditions = data["components"], data.get("preconditions", [])
    for key, value in (("components", components), ("preconditions", preconditions)):
        if not isinstance(value, list):
            raise _invalid(f"{key}: expected a list, found {_kind(value)}")
    if not components:
        raise _invalid("components: expected at least one component, found an empty list")
    parsed = Breakdown(
        components=[_component(c, f"components[{i}]") for i, c in enumerate(components)],
        preconditions=[_precondition(p, f"preconditions[{i}]") for i, p in enumerate(preconditions)],
    )
    parsed.failed = [p["name"] for p in parsed.preconditions if not p["held"]]
    if "preconditions_failed" in data:
        listed = data["preconditions_failed"]
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise _invalid(f"preconditions_failed: expected a list of names, found {listed!r}"[:300])
        if parsed.preconditions and sorted(listed) != sorted(parsed.failed):
            raise _invalid(
                f"preconditions_failed: expected the preconditions whose held is false, "
                f"{parsed.failed}, found {listed}"[:300]
            )
        parsed.failed = parsed.failed or list(listed)
    return parsed


def osworld_verdict(reward_path: str) -> str:
    """Run reward.py and say OSWORLD_PASS only for a full, well-formed score (the exported
    evaluator's command); reward.py's own output never reaches this command's stdout."""
    try:
        run = subprocess.run(
            [sys.executable, reward_path],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            encoding="utf-8",
            errors="replace",
            timeout=OSWORLD_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return f"{OSWORLD_FAIL}: reward.py ran over {OSWORLD_TIMEOUT_S:g} s"
    if run.returncode != 0:
        return f"{OSWORLD_FAIL}: reward.py exited {run.returncode}"
    lines = output_lines(run.stdout)
    try:
        breakdown = read_breakdown(lines)
        broken = check_errors(breakdown)
        if broken:
            return f"{OSWORLD_FAIL}: {broken}"
        score = check_consistent(read_score(lines), breakdown)
    except RewardOutputError as exc:
        return f"{OSWORLD_FAIL}: {exc}"
    return OSWORLD_PASS if score == 1.0 else f"{OSWORLD_FAIL}: score {score!r}"
