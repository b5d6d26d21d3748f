"""One rollout: a policy drives a real desktop set up from a bundle, and the bundle's reward grades it.

Per model step: a screenshot (what the policy sees, stored in the trajectory), the policy's calls,
their execution (infra/computer_use/executor.py), a short settle. The episode ends when the policy
terminates or answers, or at the step budget (then `terminated` is False). The bundle's reward.py
then runs inside the desktop on the state the application left; a grade without a score is
recorded as `reward: null` with the grader's error, never as 0.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from infra.computer_use.executor import Executed, execute_calls
from infra.contracts.policy import Observation, Policy
from infra.contracts.task import TaskSpec
from infra.trajectories import Trajectory, TrajectoryStep, rollout_id
from tasks.grading import parse_grade

log = logging.getLogger(__name__)

DEFAULT_MAX_STEPS = 80  # the rollouts dataset's budget (seeds/004)


@dataclass
class EpisodeTimings:
    """Where an episode's time went; `overhead_s` is everything but the policy's own time."""

    screenshot_s: float = 0.0
    execute_s: float = 0.0
    policy_s: float = 0.0
    settle_s: float = 0.0
    grade_s: float = 0.0
    model_steps: int = 0

    @property
    def overhead_per_step_s(self) -> float:
        return (self.screenshot_s + self.execute_s) / max(self.model_steps, 1)


@dataclass
class Episode:
    trajectory: Trajectory
    screenshots: dict[str, bytes]
    timings: EpisodeTimings = field(default_factory=EpisodeTimings)


def run_episode(
    desktop,
    spec: TaskSpec,
    reward_py: str,
    policy: Policy,
    *,
    repeat: int = 0,
    max_steps: int = DEFAULT_MAX_STEPS,
    settle_s: float = 0.3,
    grade_after_s: float = 1.5,
    before_grading: Callable[[object], None] | None = None,
) -> Episode:
    """Drive `desktop` (already set up at the task's initial state) with `policy`, then grade."""
    rid = rollout_id(spec.id, repeat)
    screen = desktop.screen_size()
    timings = EpisodeTimings()
    started = time.monotonic()
    policy.start(spec, screen, desktop)
    steps: list[TrajectoryStep] = []
    screenshots: dict[str, bytes] = {}
    results: list[dict] = []
    terminated, status = False, None
    try:
        for model_step in range(max_steps):
            t = time.monotonic()
            png = desktop.screenshot()
            timings.screenshot_s += time.monotonic() - t
            member = f"{rid}/step_{model_step:03d}.png"
            screenshots[member] = png
            reply = policy.step(
                Observation(step=model_step, screenshot_png=png, screen=screen, last_results=results)
            )
            timings.policy_s += reply.seconds
            t = time.monotonic()
            executed = execute_calls(desktop, reply.calls, policy.geometry) if reply.calls else []
            timings.execute_s += time.monotonic() - t
            if reply.errors:
                executed.append(
                    Executed(action="invalid", raw_action_args={}, ok=False, error="; ".join(reply.errors))
                )
            timings.model_steps += 1
            steps += _records(len(steps), model_step, member, reply.assistant_raw, executed)
            results = [e.model_dump(include={"action", "ok", "error"}) for e in executed]
            final = next((e for e in executed if e.final), None)
            if final is not None:
                terminated, status = True, final.status
                break
            time.sleep(settle_s)
            timings.settle_s += settle_s
    finally:
        policy.close()
    # Like OSWorld's evaluation, give the apps a moment: a save the policy just confirmed may still be
    # on its way to disk when the episode ends.
    time.sleep(grade_after_s)
    if (prepare := getattr(desktop, "prepare_grading", None)) is not None:
        prepare()  # the task's evaluator postconfig: apps holding state in memory exit and write it
    if before_grading is not None:
        before_grading(desktop)
    t = time.monotonic()
    grade = parse_grade(desktop.run_script(reward_py, name="reward.py"))
    timings.grade_s = time.monotonic() - t
    trajectory = Trajectory(
        task_id=rid,
        instruction=spec.instruction,
        reward=grade.score,
        terminated=terminated,
        screen=screen,
        model=policy.model,
        steps=steps,
        tuple_id=spec.id,
        repeat=repeat,
        policy=policy.name,
        coordinate_space=policy.space.value,
        status=status,
        seconds=round(time.monotonic() - started, 3),
        reward_error=grade.error,
    )
    return Episode(trajectory, screenshots, timings)


def _records(
    first: int, model_step: int, member: str, raw: str, executed: list[Executed]
) -> list[TrajectoryStep]:
    return [
        TrajectoryStep(
            step=first + n,
            model_step=model_step,
            call=n,
            screenshot=f"screenshots/step_{model_step:03d}.png",
            shard="",
            member=member,
            cursor_before=e.cursor_before,
            action=e.action,
            coordinate_screen=e.coordinate_screen,
            raw_action_args=e.raw_action_args,
            assistant_raw=raw if n == 0 else "",
            ok=e.ok,
            error=e.error,
        )
        for n, e in enumerate(executed)
    ]


def bundle_scripts(bundle: Path) -> dict[str, str]:
    return {name: (bundle / name).read_text(encoding="utf-8") for name in ("initial_setup.py", "reward.py")}
