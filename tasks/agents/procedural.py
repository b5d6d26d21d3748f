"""The procedural backend (the embedded default): families render correct scripts without an LLM.

Generator side renders initial_setup.py and golden_patch.py from the spec; Discriminator side renders
reward.py from the spec alone (the family's reward function and the spec's params, which pin the
ground truth) — it never looks at what the Generator wrote.
"""

from __future__ import annotations

from pathlib import Path

from infra.errors import ConfigError
from skills.kit import Family, load_families
from tasks.agents.base import DiscriminatorOutput, DiscriminatorRequest, GeneratorOutput
from tasks.models import TaskSpec
from tasks.skills import Skill


def _family(families: dict[str, Family], spec: TaskSpec) -> Family:
    try:
        return families[spec.family]
    except KeyError:
        raise ConfigError(
            f"unknown family {spec.family!r} for task {spec.id}",
            hint=f"known families: {', '.join(sorted(families))}",
        ) from None


class ProceduralGenerator:
    name = "procedural"

    def __init__(self, skills_dir: Path) -> None:
        self.families = load_families(skills_dir)

    def generate(self, spec: TaskSpec, skill: Skill, review: str | None, round_no: int) -> GeneratorOutput:
        family = _family(self.families, spec)
        return GeneratorOutput(
            initial_setup_py=family.script("initial_setup", spec),
            golden_patch_py=family.script("golden_patch", spec),
        )


class ProceduralDiscriminator:
    name = "procedural"

    def __init__(self, skills_dir: Path) -> None:
        self.families = load_families(skills_dir)

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        return DiscriminatorOutput(
            reward_py=_family(self.families, request.task).script("reward", request.task)
        )

    def close(self) -> None:
        pass
