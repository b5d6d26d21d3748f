"""Scripted agents for tests: they stand in for a model whose output is wrong in known ways.

Importable inside the isolated Discriminator worker as `tests.agents_fixtures:<Class>`.
"""

from __future__ import annotations

import json
from pathlib import Path

from tasks.agents.base import DiscriminatorOutput, DiscriminatorRequest, GeneratorOutput
from tasks.agents.procedural import ProceduralDiscriminator, ProceduralGenerator
from tasks.models import TaskSpec
from tasks.skills import Skill


class FlakyGenerator(ProceduralGenerator):
    """Round 1 ships a near-miss golden patch; afterwards it fixes the patch only if the REVIEW
    names the component the golden env missed (so the fix is driven by the feedback)."""

    name = "flaky"

    def __init__(self, skills_dir: Path) -> None:
        super().__init__(skills_dir)
        self.reviews: list[str | None] = []

    def generate(self, spec: TaskSpec, skill: Skill, review: str | None, round_no: int) -> GeneratorOutput:
        self.reviews.append(review)
        family = self.families[spec.family]
        fixed = review is not None and "golden_env misses component" in review
        patch_kind = "golden_patch" if fixed else "near_miss"
        return GeneratorOutput(
            initial_setup_py=family.script("initial_setup", spec),
            golden_patch_py=family.script(patch_kind, spec),
        )


class LazyGenerator(ProceduralGenerator):
    """Never applies the solution: golden_patch.py does nothing, every round."""

    name = "lazy"

    def generate(self, spec, skill, review, round_no) -> GeneratorOutput:
        family = self.families[spec.family]
        return GeneratorOutput(
            initial_setup_py=family.script("initial_setup", spec), golden_patch_py="print('nothing to do')\n"
        )


class CrashingGenerator(ProceduralGenerator):
    """initial_setup.py raises: condition 1 fails."""

    name = "crashing"

    def generate(self, spec, skill, review, round_no) -> GeneratorOutput:
        return GeneratorOutput(initial_setup_py="raise RuntimeError('disk full')\n", golden_patch_py="pass\n")


class PeekingDiscriminator(ProceduralDiscriminator):
    """Tries to read whatever paths the test lists in task.params['peek'] and reports what it saw,
    along with the keys of the request it was given."""

    name = "peeking"

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        seen = {}
        for path in request.task.params.get("peek", []):
            try:
                seen[path] = Path(path).read_text()[:200]
            except OSError as exc:
                seen[path] = f"DENIED {type(exc).__name__}"
        notes = json.dumps({"seen": seen, "request_keys": sorted(request.model_dump())})
        return DiscriminatorOutput(reward_py=super().write_reward(request).reward_py, notes=notes)


class BrokenRewardDiscriminator(ProceduralDiscriminator):
    """Writes a reward.py that crashes before printing a score."""

    name = "broken"

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        return DiscriminatorOutput(reward_py="import json\nraise ValueError('cannot parse workbook')\n")


# Rewards that break in one known way each, as edits of calc.padded_ids' procedural reward.py.
# The Discriminator worker picks the case named by $CUAGYM_TEST_REWARD_CASE.
CRAFTED_REWARDS = {
    # B2 is empty on the initial state, so `.startswith` raises there and only there: before checks
    # reported their status, this crashed check read as "0 on initial" and the tuple was verified.
    "crash_on_initial": (
        "    def first_cell():\n        return references_own_row(2)",
        "    def first_cell():\n        return sheet().cell(row=2, column=2).value.startswith('=') and references_own_row(2)",
    ),
    "precondition_raises": (
        "    def ids_intact():\n",
        "    def ids_intact():\n        raise KeyError('Sheet9')\n",
    ),
    "returns_none": (
        "    def propagated():\n",
        "    def propagated():\n        return None\n",
    ),
    "malformed_breakdown": (
        'print("BREAKDOWN: " + _json.dumps(breakdown))',
        'print("BREAKDOWN: {components: [")',
    ),
    "no_breakdown": ('print("BREAKDOWN: " + _json.dumps(breakdown))', "pass"),
    "second_reward_line": (
        'if __name__ == "__main__":\n',
        'if __name__ == "__main__":\n    import atexit\n    atexit.register(lambda: print("REWARD: 1.0"))\n',
    ),
    "exits_non_zero": ("    raise SystemExit(grade())", "    grade()\n    raise SystemExit(3)"),
}


# chat.thread_reply_react asks for a threaded reply AND a reaction; this reward checks the reply only.
# Initial -> 0.0 and golden -> 1.0 still hold: only a mutant with the reaction undone tells.
CRAFTED_REWARDS["ignores_the_reaction"] = (
    '@component("the question carries your reaction", 0.4)',
    "@(lambda check: check)  # no longer registered: the reaction is not checked",
)


class CraftedRewardDiscriminator(ProceduralDiscriminator):
    """The procedural reward with one CRAFTED_REWARDS edit applied."""

    name = "crafted"

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        import os

        old, new = CRAFTED_REWARDS[os.environ["CUAGYM_TEST_REWARD_CASE"]]
        source = super().write_reward(request).reward_py
        assert old in source, f"the crafted edit no longer applies: {old!r}"
        return DiscriminatorOutput(reward_py=source.replace(old, new, 1))


def crafted_discriminator(case: str):
    """The isolated Discriminator whose reward is the crafted `case` (CraftedRewardDiscriminator)."""
    from infra.settings import get_settings
    from tasks.agents.isolation import IsolatedDiscriminator

    return IsolatedDiscriminator(
        "tests.agents_fixtures:CraftedRewardDiscriminator",
        get_settings(),
        env={"CUAGYM_TEST_REWARD_CASE": case},
    )
