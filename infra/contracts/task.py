"""What a task is: the words it is described in (platform, domain, difficulty, scenario, wording) and
the TaskSpec every layer passes around — families produce it, the pipeline synthesises from it,
policies and training read it. It sits on the ground floor (infra/contracts) so that skills/kit,
tasks/ and training/ share one definition without importing each other.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Platform(StrEnum):
    DESKTOP = "desktop"
    WEB = "web"
    CROSS = "cross"


class Difficulty(StrEnum):
    EASY = "easy"  # <= 3 atomic actions
    MEDIUM = "medium"  # 3-10 steps
    HARD = "hard"  # long-horizon: several independently scored components


class Scenario(StrEnum):
    COMMERCIAL = "commercial"
    EDUCATIONAL = "educational"
    SCIENTIFIC = "scientific"
    PERSONAL = "personal"


class Domain(StrEnum):
    """O*NET SOC major occupation groups (the paper grounds coverage in them)."""

    MANAGEMENT = "management"
    BUSINESS_FINANCE = "business_finance"
    COMPUTER_MATH = "computer_math"
    ENGINEERING = "engineering"
    SCIENCE = "science"
    COMMUNITY_SOCIAL = "community_social"
    LEGAL = "legal"
    EDUCATION = "education"
    ARTS_MEDIA = "arts_media"
    HEALTHCARE = "healthcare"
    PROTECTIVE = "protective"
    FOOD_SERVICE = "food_service"
    PERSONAL_CARE = "personal_care"
    SALES = "sales"
    OFFICE_ADMIN = "office_admin"
    CONSTRUCTION = "construction"
    PRODUCTION = "production"
    TRANSPORTATION = "transportation"


class Wording(StrEnum):
    """How an instruction is phrased; each family offers every style."""

    IMPERATIVE = "imperative"
    REQUEST = "request"
    CONTEXTUAL = "contextual"
    GOAL = "goal"
    PROBLEM_FIX = "problem_fix"


class TaskSpec(BaseModel):
    """One task to synthesise: what the agent is asked (instruction) and what pins the world (context,
    params). Generator and Discriminator both work from this and nothing else of each other."""

    model_config = ConfigDict(frozen=True)

    id: str
    instruction: str
    context: str
    apps: list[str]
    platform: Platform
    domain: Domain
    difficulty: Difficulty
    scenario: Scenario
    persona: str
    taxonomy_leaf: str
    family: str
    template: str  # "<family>:<wording>": the unit of the <=3-per-app-per-batch cap
    seed: int
    params: dict[str, Any] = Field(default_factory=dict)
    sampling_pass: str = ""  # breadth | gap_fill | edge (how the sampler chose it)

    @field_validator("apps")
    @classmethod
    def _apps_non_empty(cls, apps: list[str]) -> list[str]:
        if not apps:
            raise ValueError("a task needs at least one app")
        return apps

    @property
    def primary_app(self) -> str:
        return self.apps[0]
