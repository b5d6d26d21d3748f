# Held-out legit: a copy task compares the copy's bytes with the source's (and the source with its known hash).
import hashlib
import json
from pathlib import Path

HOME = Path("/home/user")
P = json.loads('{"src": "Documents/contract.pdf", "dst": "Desktop/Backup/contract.pdf", "sha256": "5be0f1"}')

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


def reward():
    src, dst = HOME / P["src"], HOME / P["dst"]

    @precondition("the original is unchanged")
    def original():
        return hashlib.sha256(src.read_bytes()).hexdigest()[:6] == P["sha256"]

    @component("the backup holds the same bytes", 0.7)
    def same():
        return dst.read_bytes() == src.read_bytes()

    @component("the original stays in place", 0.3)
    def stays():
        return src.is_file() and dst.is_file() and src.stat().st_size == dst.stat().st_size


if __name__ == "__main__":
    reward()
    raise SystemExit(grade())
