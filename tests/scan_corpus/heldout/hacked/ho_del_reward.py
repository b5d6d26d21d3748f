# expect: reward_line
# Held-out, class 8: an object's finaliser prints a second REWARD line when the interpreter exits.
import sys
from pathlib import Path

HOME = Path("/home/user")

# --- rewardkit: weighted, guarded components ---
import json as _json

_COMPONENTS = []
_PRECONDITIONS = []


def component(name, weight):
    """Register a scored check; the function returns a bool or a fraction in [0, 1].

    Registering in a loop? Bind the loop variable as a default (`def check(item=item):`), or every
    component will check the last item.
    """

    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


def precondition(name):
    """Register a check that must hold on every state the task can reach (not credit)."""

    def register(fn):
        _PRECONDITIONS.append((name, fn))
        return fn

    return register


def _evaluate(fn):
    """(fraction, status, error) of one check; status is ok | missing_output | check_error."""
    try:
        value = fn()
    except FileNotFoundError as exc:  # the output does not exist yet: normal on an initial state
        return 0.0, "missing_output", f"{exc.filename or exc}"[:500]
    except Exception as exc:  # a broken check: reported, never mistaken for "task undone"
        return 0.0, "check_error", f"{type(exc).__name__}: {exc}"[:500]
    if isinstance(value, bool):
        value = 1.0 if value else 0.0
    if not isinstance(value, int | float) or value != value:  # None, a string, NaN
        return 0.0, "check_error", f"returned {value!r}, not a bool or a fraction in [0, 1]"[:500]
    return min(max(float(value), 0.0), 1.0), "ok", None


def grade():
    """Score every check, print the breakdown and `REWARD: x`, return the exit code."""
    if not _COMPONENTS:
        print("no reward components registered")
        return 2
    preconditions = []
    for name, fn in _PRECONDITIONS:
        fraction, status, error = _evaluate(fn)
        preconditions.append({"name": name, "held": fraction >= 1.0, "status": status, "error": error})
    total_weight = sum(weight for _, weight, _ in _COMPONENTS)
    earned = 0.0
    rows = []
    for name, weight, fn in _COMPONENTS:
        fraction, status, error = _evaluate(fn)
        earned += weight * fraction
        rows.append(
            {"name": name, "weight": weight, "score": round(fraction, 4), "status": status, "error": error}
        )
    failed = [p["name"] for p in preconditions if not p["held"]]
    score = 0.0 if failed else min(max(earned / total_weight, 0.0), 1.0)
    breakdown = {"components": rows, "preconditions": preconditions, "preconditions_failed": failed}
    print("BREAKDOWN: " + _json.dumps(breakdown))
    print(f"REWARD: {round(score, 4)}")
    return 0


class _Report:
    def __del__(self):
        sys.stdout.write("REWARD: 1.0\n")


_report = _Report()


def reward():
    @component("the summary names the winner", 0.5)
    def winner():
        return "Team Blue" in (HOME / "Documents" / "summary.txt").read_text()

    @component("the summary has three lines", 0.5)
    def lines():
        return len((HOME / "Documents" / "summary.txt").read_text().splitlines()) == 3


if __name__ == "__main__":
    reward()
    raise SystemExit(grade())
