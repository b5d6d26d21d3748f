# expect: existence_only
# rewardkit style, but the export component only checks that a PDF path exists.
import json
from pathlib import Path

HOME = Path("/home/user")
_COMPONENTS = []


def component(name, weight):
    def register(fn):
        _COMPONENTS.append((name, float(weight), fn))
        return fn

    return register


@component("deck has five slides", 0.5)
def five_slides():
    from pptx import Presentation

    return len(Presentation(HOME / "Desktop/plan.pptx").slides) == 5


@component("deck exported to PDF", 0.5)
def exported():
    return (HOME / "Desktop/plan.pdf").is_file()


if __name__ == "__main__":
    earned = 0.0
    for name, weight, fn in _COMPONENTS:
        try:
            earned += weight * float(fn())
        except Exception:
            pass
    print("BREAKDOWN: " + json.dumps([n for n, _, _ in _COMPONENTS]))
    print(f"REWARD: {min(earned, 1.0)}")
