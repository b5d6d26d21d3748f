"""GSPO's environment side: per iteration, G episodes of the current policy on each drawn task.

`EpisodeCollector(config, provider, bundles)` is the `collect` that `run_gspo` calls (training/gspo.py):
for each drawn task it plays `group_size` episodes (tasks/rollout/bundles.py: a fresh desktop per
episode, set up from the bundle's config.json, graded by its reward.py), `rollout_workers` at a
time, each with a policy from `make_policy()` on the current weights. An episode whose desktop fails
is a `Rollout` with reward None (advantage 0), never a lost group.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from infra.contracts.task import TaskSpec
from infra.envs.desktop import DesktopProvider
from tasks.rollout.bundles import bundle_tasks, play_bundle_episode
from tasks.rollout.runner import Episode
from training.config import GSPOConfig
from training.local_policy import LocalPolicy, SampledTurn


@dataclass
class Rollout:
    """One episode of the current policy: its task, index in the group, reward and sampled replies."""

    tuple_id: str
    repeat: int
    reward: float | None  # None: the grader gave no score
    turns: list[SampledTurn] = field(default_factory=list)
    seconds: float = 0.0
    # the played episode and its task, for the trajectory dataset and the `rollouts` rows
    # (training/gspo_dataset.py); None for an episode whose desktop failed
    spec: TaskSpec | None = field(default=None, repr=False)
    episode: Episode | None = field(default=None, repr=False)


class EpisodeCollector:
    """GSPO's `collect`: per iteration, G episodes of the current policy on each drawn task."""

    def __init__(self, config: GSPOConfig, provider: DesktopProvider, bundles: list[Path]) -> None:
        self.config, self.provider = config, provider
        self.tasks = bundle_tasks(bundles)

    @property
    def task_ids(self) -> list[str]:
        return list(self.tasks)

    def __call__(
        self, make_policy: Callable[[], LocalPolicy], iteration: int, task_ids: list[str]
    ) -> list[list[Rollout]]:
        drawn = [self.tasks[t] for t in task_ids]
        jobs = [(bundle, spec, k) for bundle, spec in drawn for k in range(self.config.group_size)]
        with ThreadPoolExecutor(self.config.rollout_workers) as pool:
            rollouts = list(pool.map(lambda job: self.episode(*job, make_policy()), jobs))
        g = self.config.group_size
        return [rollouts[i : i + g] for i in range(0, len(rollouts), g)]

    def episode(self, bundle: Path, spec: TaskSpec, repeat: int, policy: LocalPolicy) -> Rollout:
        started = time.monotonic()
        episode = play_bundle_episode(
            self.provider, bundle, spec, policy, repeat=repeat, max_steps=self.config.max_steps
        )
        reward = episode.trajectory.reward if episode is not None else None
        seconds = round(time.monotonic() - started, 3)
        return Rollout(spec.id, repeat, reward, list(policy.turns), seconds, spec=spec, episode=episode)
