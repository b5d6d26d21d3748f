"""The contracts every layer shares, in one low home (infra imports nothing above it, so skills/kit,
tasks/ and training/ all may use these):

    infra/contracts/task.py     TaskSpec and the enums it is described in (Platform, Domain, …)
    infra/contracts/policy.py   Observation, PolicyStep and the Policy protocol an episode drives
    infra/envs/base.py          StateView: what an env's state looks like to the pipeline
    infra/trajectories.py       Trajectory, TrajectoryStep: what an episode leaves behind
    infra/computer_use/         the computer_use tool: actions, formats, coordinate geometry

The last three are defined where their machinery lives and named here so a reader finds every
contract from one place; the episode loop that joins them is tasks/rollout/runner.py.
"""

from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import ToolFormat
from infra.contracts.policy import Observation, Policy, PolicyStep
from infra.contracts.task import Difficulty, Domain, Platform, Scenario, TaskSpec, Wording
from infra.envs.base import StateView
from infra.trajectories import Trajectory, TrajectoryStep

__all__ = [
    "Difficulty",
    "Domain",
    "Geometry",
    "Observation",
    "Platform",
    "Policy",
    "PolicyStep",
    "Scenario",
    "Space",
    "StateView",
    "TaskSpec",
    "ToolFormat",
    "Trajectory",
    "TrajectoryStep",
    "Wording",
]
