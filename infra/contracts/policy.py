"""What drives an episode: a Policy turns what the agent sees into computer_use calls.

Three kinds behind one interface (tasks/rollout/llm_policy.py, tasks/rollout/scripted.py,
training/local_policy.py):
- `llm`: any litellm model; the reply is the model's text (Hermes JSON or Qwen3.5 XML tool calls, or
  OpenAI tool calls), parsed by infra/computer_use/formats.py;
- `scripted`: a family's GUI teacher, `demonstrate(P, screen)` beside its guest code, which emits the
  calls a careful person would make in the real app;
- `local`: the model being trained, in-process (SFT checkpoints, GSPO's sampler).

A policy never raises for what a model wrote: garbage becomes `PolicyStep.errors` and the episode
records a failed step and asks again, until the step budget.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import ToolFormat
from infra.contracts.task import TaskSpec


class Observation(BaseModel):
    """What the agent sees at one model step."""

    step: int
    screenshot_png: bytes
    screen: tuple[int, int]
    last_results: list[dict[str, Any]] = Field(default_factory=list)  # what the previous calls did


class PolicyStep(BaseModel):
    """One model turn: the raw reply, the calls read from it, and what could not be read."""

    assistant_raw: str = ""
    calls: list[dict[str, Any]] = Field(default_factory=list)  # computer_use arguments, model space
    errors: list[str] = Field(default_factory=list)
    seconds: float = 0.0  # time spent thinking (model latency), excluded from the executor's overhead


@runtime_checkable
class Policy(Protocol):
    name: str  # "scripted" | "llm"
    model: str  # what goes into the trajectory's `model` field
    space: Space  # the coordinate space its calls are in
    geometry: Geometry  # that space with the frame the model sees: how its coordinates map back
    fmt: ToolFormat  # the tool-call format of `assistant_raw`

    def start(self, task: TaskSpec, screen: tuple[int, int], desktop: Any) -> None:
        """A new episode on `task`; `desktop` lets a scripted teacher read the screen or the
        accessibility tree (an LLM policy sees only the observations)."""

    def step(self, observation: Observation) -> PolicyStep: ...

    def close(self) -> None: ...
