#!/usr/bin/env python3
"""reward.py in the rewardkit style: rewardkit inlined, weighted components, a precondition."""

import json
from pathlib import Path

HOME = Path("/home/user")
P = json.loads('{"path": "Documents/report.docx", "headings": ["Summary", "Findings", "Next steps"]}')

# --- rewardkit: weighted, guarded components ---
import json as _json

_COMPONENTS = []
_PRECONDITIONS = []


def component(name, weight):
    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


def precondition(name):
    def register(fn):
        _PRECONDITIONS.append((name, fn))
        return fn

    return register


def _evaluate(fn):
    try:
        value = fn()
    except Exception as exc:  # a broken component earns nothing; the grader itself goes on
        return 0.0, f"{type(exc).__name__}: {exc}"[:500]
    if isinstance(value, bool):
        value = 1.0 if value else 0.0
    return min(max(float(value), 0.0), 1.0), None


def grade():
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


def reward(P):
    import docx

    doc = {}

    def paragraphs():
        if "doc" not in doc:
            doc["doc"] = docx.Document(HOME / P["path"])
        return doc["doc"].paragraphs

    @precondition("the document still has its body text")
    def has_body():
        return len(paragraphs()) >= len(P["headings"])

    @component("each heading uses Heading 1", 0.6)
    def headings_styled():
        styled = {p.text.strip() for p in paragraphs() if p.style.name == "Heading 1"}
        return sum(h in styled for h in P["headings"]) / len(P["headings"])

    @component("headings appear in the given order", 0.4)
    def headings_ordered():
        found = [p.text.strip() for p in paragraphs() if p.text.strip() in P["headings"]]
        return found == P["headings"]


if __name__ == "__main__":
    reward(P)
    raise SystemExit(grade())
