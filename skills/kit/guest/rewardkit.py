"""Weighted, guarded reward components. Inlined at the top of every procedural reward.py.

Contract (DESIGN.md §3.1): the last stdout line is `REWARD: <float in [0,1]>`, printed once, by
`grade()`; the line before it is `BREAKDOWN: {json}` saying how every check ended. One check raising
does not crash the grader, but it does not pass for a zero either: its status is `check_error`, and
the pipeline treats such a grade as a broken grader (no score), on any state. A check that finds the
task's output missing (FileNotFoundError) ran and found the task undone: status `missing_output`,
credit 0. A check that finds the output unreadable as its kind (invalid JSON, a .xlsx that is not a
workbook: the exceptions named in `_INVALID_OUTPUT`) also ran and found the task undone: status
`invalid_output`, credit 0. A failed precondition (the world is not the task's world, e.g. the data
file was deleted) forfeits every component.
"""

import json as _json

_COMPONENTS = []
_PRECONDITIONS = []
# What the standard library and the allowed libraries raise for a file that is not what its name
# says: the state is wrong, not the checker. Matched by class name, so nothing needs importing here.
_INVALID_OUTPUT = frozenset(
    {
        "JSONDecodeError",
        "BadZipFile",
        "InvalidFileException",
        "PackageNotFoundError",
        "XMLSyntaxError",
        "ParseError",
        "UnicodeDecodeError",
        "PdfReadError",
        "EmptyFileError",
    }
)


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
    except Exception as exc:
        if type(exc).__name__ in _INVALID_OUTPUT:  # the output is unreadable as its kind
            return 0.0, "invalid_output", f"{type(exc).__name__}: {exc}"[:500]
        return 0.0, "check_error", f"{type(exc).__name__}: {exc}"[:500]  # a broken check, never a "0"
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
