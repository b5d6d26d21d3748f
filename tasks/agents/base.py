"""The two agent roles of co-generation and what each is allowed to see.

The Generator gets the task, the skill and the previous REVIEW, and writes initial_setup.py and
golden_patch.py. The Discriminator gets the task, the skill, the previous REVIEW and the two
*state views* — never the Generator's scripts — and writes reward.py. Backends (procedural, llm)
implement these; tasks/agents/isolation.py runs a Discriminator in its own sandboxed process so the
barrier is enforced by what the process can reach, not by a promise.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel

from infra.envs.base import StateView
from infra.errors import CuagymError
from tasks.models import TaskSpec
from tasks.skills import Skill


class AgentOutputError(CuagymError):
    """An agent's reply could not be turned into a script (malformed, empty, oversized…)."""


class GeneratorOutput(BaseModel):
    initial_setup_py: str
    golden_patch_py: str
    notes: str = ""


class DiscriminatorRequest(BaseModel):
    """Everything a Discriminator is given — the whole of it crosses the process barrier as JSON."""

    task: TaskSpec
    skill: str
    initial_state: StateView
    golden_state: StateView
    review: str | None = None
    round: int = 1


class DiscriminatorOutput(BaseModel):
    reward_py: str
    notes: str = ""


class Generator(Protocol):
    name: str

    def generate(self, spec: TaskSpec, skill: Skill, review: str | None, round_no: int) -> GeneratorOutput: ...


class Discriminator(Protocol):
    name: str

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput: ...

    def close(self) -> None: ...
