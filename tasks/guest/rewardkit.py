"""Weighted, guarded reward components. Inlined at the top of every procedural reward.py.

Contract (DESIGN.md §3.1): the last stdout line is `REWARD: <float in [0,1]>`; the process exits 0
whenever grading completed. One component raising does not crash the grader: it earns 0 and its
error is reported. A failed precondition (the world is not the task's world at all, e.g. the data
file was deleted) forfeits every component. A line `BREAKDOWN: {json}` before the score says why.
"""

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
    try:
        value = fn()
    except FileNotFoundError as exc:  # the output does not exist yet: normal on an initial state
        return 0.0, f"missing_output: {exc.filename or exc}"[:500]
    except Exception as exc:  # a broken component earns nothing; the grader itself goes on
        return 0.0, f"checker_error: {type(exc).__name__}: {exc}"[:500]
    if isinstance(value, bool):
        value = 1.0 if value else 0.0
    return min(max(float(value), 0.0), 1.0), None


def grade():
    """Score every component, print the breakdown and `REWARD: x`, return the exit code."""
    if not _COMPONENTS:
        print("no reward components registered")
        return 2
    failed = [name for name, fn in _PRECONDITIONS if _evaluate(fn)[0] < 1.0]
    total_weight = sum(weight for _, weight, _ in _COMPONENTS)
    earned = 0.0
    rows = []
    for name, weight, fn in _COMPONENTS:
        fraction, error = _evaluate(fn)
        earned += weight * fraction
        rows.append({"name": name, "weight": weight, "score": round(fraction, 4), "error": error})
    score = 0.0 if failed else min(max(earned / total_weight, 0.0), 1.0)
    print("BREAKDOWN: " + _json.dumps({"components": rows, "preconditions_failed": failed}))
    print(f"REWARD: {round(score, 4)}")
    return 0
