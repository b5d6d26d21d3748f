"""Held-out evaluation: the weights being trained, played on verified tuples the run never trains on.

A training run whose config lists `eval_tuples` is evaluated on them — SFT before its first step and
after its last, GSPO before its first iteration and after every `eval_every`-th — each time
`eval_episodes` episodes per tuple on fresh desktops (tasks/rollout/bundles.py: set up from the
bundle's config.json, graded by its own reward.py), decoded greedily by default
(`eval_temperature: 0`). The figures land in the warehouse (`training_evals`, view
`training_eval_curves`) and in `cuagym report training`'s chart.

An evaluation that shares a task with the run's training data is not held out: `check_held_out`
refuses it before any work.

Example:
    >>> evaluate = HeldOutEvaluator.from_config(config, provider)      # doctest: +SKIP
    >>> evaluate(model, processor, step=0).success_rate                 # doctest: +SKIP
    0.0
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infra.envs.desktop import DesktopProvider
from infra.errors import ConfigError
from infra.trajectories import read_trajectories
from tasks.rollout.bundles import bundle_dirs, bundle_tasks, play_bundle_episode
from training.config import GSPOConfig, SFTConfig
from training.local_policy import LocalPolicy

log = logging.getLogger(__name__)

SUCCESS = 1.0  # an episode succeeds when its reward.py gives full credit


@dataclass
class Evaluation:
    """One held-out evaluation: the reward of every episode (None: the grader gave no score)."""

    step: int  # optimizer steps taken when evaluated (0: before training)
    iteration: int | None  # GSPO: iterations done (0: before the first); None for SFT
    tuples: int
    rewards: list[float | None] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def scored(self) -> list[float]:
        return [r for r in self.rewards if r is not None]

    @property
    def successes(self) -> int:
        return sum(r >= SUCCESS for r in self.scored)

    @property
    def success_rate(self) -> float | None:
        return self.successes / len(self.scored) if self.scored else None

    @property
    def reward_mean(self) -> float | None:
        return sum(self.scored) / len(self.scored) if self.scored else None

    def row(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "iteration": self.iteration,
            "tuples": self.tuples,
            "episodes": len(self.rewards),
            "scored": len(self.scored),
            "successes": self.successes,
            "reward_mean": self.reward_mean,
            "success_rate": self.success_rate,
            "seconds": self.seconds,
        }


def task_id_of(rollout_id: str) -> str:
    """A rollout's task id (rollout ids are `<task id>__r<repeat>`)."""
    return rollout_id.rsplit("__r", 1)[0]


def dataset_task_ids(datasets: list[Path]) -> set[str]:
    """The tasks the trajectories of `datasets` were played on."""
    return {task_id_of(t.task_id) for folder in datasets for t in read_trajectories(Path(folder))}


def check_held_out(eval_ids: set[str], train_ids: set[str]) -> None:
    """Raise ConfigError when the evaluation shares a task with the training data."""
    if shared := sorted(eval_ids & train_ids):
        raise ConfigError(
            f"{len(shared)} evaluation task(s) are also trained on (e.g. {shared[0]}): the evaluation "
            "would not be held out",
            hint="point eval_tuples at bundles of another synthesis seed than the training data",
        )


class HeldOutEvaluator:
    """Plays the current weights on the held-out bundles (see the module docstring)."""

    def __init__(
        self,
        provider: DesktopProvider,
        bundles: list[Path],
        config: SFTConfig | GSPOConfig,
    ) -> None:
        self.provider, self.config = provider, config
        self.tasks = bundle_tasks(bundles)

    @classmethod
    def from_config(cls, config: SFTConfig | GSPOConfig, provider: DesktopProvider) -> HeldOutEvaluator:
        return cls(provider, bundle_dirs(list(config.eval_tuples)), config)

    @property
    def task_ids(self) -> set[str]:
        return set(self.tasks)

    def __call__(self, model: Any, processor: Any, *, step: int, iteration: int | None = None) -> Evaluation:
        cfg = self.config
        lock = threading.Lock()  # one generate at a time on the shared weights
        jobs = [(bundle, spec, k) for bundle, spec in self.tasks.values() for k in range(cfg.eval_episodes)]

        def play(job) -> float | None:
            bundle, spec, repeat = job
            policy = LocalPolicy(
                model,
                processor,
                cfg.family,
                model_name="eval",
                temperature=cfg.eval_temperature,
                max_tokens=cfg.eval_max_tokens,
                max_screenshots=cfg.max_screenshots,
                collapse_block=cfg.traj_slice_interval,
                lock=lock,
            )
            episode = play_bundle_episode(
                self.provider, bundle, spec, policy, repeat=repeat, max_steps=cfg.eval_max_steps
            )
            return episode.trajectory.reward if episode is not None else None

        was_training = model.training
        model.eval()
        started = time.monotonic()
        try:
            with ThreadPoolExecutor(cfg.eval_workers) as pool:
                rewards = list(pool.map(play, jobs))
        finally:
            model.train(was_training)
        return Evaluation(step, iteration, len(self.tasks), rewards, round(time.monotonic() - started, 3))


def record_evaluation(store: Any, run_id: str, evaluation: Evaluation) -> Evaluation:
    """Log `evaluation` and write it to the run's warehouse (`store` None: no warehouse)."""
    log.info(
        "%s held-out evaluation at step %d: %d/%d successes, mean reward %s (%.1f s)",
        run_id, evaluation.step, evaluation.successes, len(evaluation.scored), evaluation.reward_mean,
        evaluation.seconds,
    )  # fmt: skip
    if store is not None:
        store.save_training_eval(run_id, evaluation.row())
    return evaluation
