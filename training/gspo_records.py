"""What a GSPO run keeps in the warehouse: each iteration's figures (training_steps), its rollouts
with their advantages (gspo_rollouts) and the drawn tasks' frontier EMAs (gspo_frontier_emas), and
the frontier state read back when a run resumes. Split from training/gspo.py, which runs the loop."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from training.config import GSPOConfig
from training.episodes import Rollout
from training.frontier import TaskFrontier, frontier_weight, observe
from warehouse.store import Warehouse

log = logging.getLogger("training.gspo")


@dataclass
class IterationStats:
    iteration: int
    step: int  # optimizer steps taken so far
    loss: float
    rewards: list[float | None]
    advantages: list[float]
    groups: int
    zero_variance_groups: int
    samples: int
    trained_samples: int  # samples with a non-zero advantage (the others add nothing)
    tokens: int  # prompt + completion tokens of the trained samples
    trained_tokens: int  # completion tokens carrying loss
    ratio_mean: float | None
    clip_low_fraction: float
    clip_high_fraction: float
    grad_norm: float | None
    seconds: float
    rollout_seconds: float = 0.0

    @property
    def reward_mean(self) -> float | None:
        scored = [r for r in self.rewards if r is not None]
        return sum(scored) / len(scored) if scored else None


def frontier_state(store: Warehouse | None, run_id: str, through: int) -> dict[str, TaskFrontier]:
    """Each task's frontier state as of iteration `through` (the resumed checkpoint's)."""
    if store is None:
        if through:
            log.warning("resuming %s without a warehouse: the frontier EMAs start afresh", run_id)
        return {}
    rows = store.frontier_emas(run_id, through_iteration=through)
    return {row.pop("tuple_id"): TaskFrontier(**row) for row in rows}


def observe_groups(
    frontier: dict[str, TaskFrontier], groups: list[list[Rollout]], cfg: GSPOConfig, iteration: int
) -> dict[str, TaskFrontier]:
    """The new frontier state of each task rolled out this iteration."""
    rewards: dict[str, list[float | None]] = {}
    for rollout in (r for group in groups for r in group):
        rewards.setdefault(rollout.tuple_id, []).append(rollout.reward)
    return {
        task: observe(frontier.get(task, TaskFrontier()), got, alpha=cfg.frontier_ema, iteration=iteration)
        for task, got in rewards.items()
    }


def record_iteration(
    store: Warehouse,
    run_id: str,
    stats: IterationStats,
    groups: list[list[Rollout]],
    observed: dict[str, TaskFrontier],
    cfg: GSPOConfig,
) -> None:
    store.save_training_step(
        {
            "run_id": run_id,
            "step": stats.step,
            "epoch": None,
            "loss": stats.loss,
            "learning_rate": cfg.learning_rate,
            "grad_norm": stats.grad_norm,
            "tokens": stats.tokens,
            "trained_tokens": stats.trained_tokens,
            "seconds": stats.seconds,
            "iteration": stats.iteration,
            "rollouts": len(stats.rewards),
            "groups": stats.groups,
            "zero_variance_groups": stats.zero_variance_groups,
            "reward_mean": stats.reward_mean,
            "unscored": sum(r is None for r in stats.rewards),
            "advantage_abs_mean": sum(abs(a) for a in stats.advantages) / max(len(stats.advantages), 1),
            "ratio_mean": stats.ratio_mean,
            "clip_low_fraction": stats.clip_low_fraction,
            "clip_high_fraction": stats.clip_high_fraction,
            "rollout_seconds": stats.rollout_seconds,
        }
    )
    rollouts = [r for group in groups for r in group]
    store.save_gspo_rollouts(
        [
            {
                "run_id": run_id,
                "iteration": stats.iteration,
                "tuple_id": r.tuple_id,
                "repeat": r.repeat,
                "reward": r.reward,
                "advantage": a,
                "model_steps": len(r.turns),
                "completion_tokens": sum(len(t.completion_ids) for t in r.turns),
                "seconds": r.seconds,
            }
            for r, a in zip(rollouts, stats.advantages, strict=True)
        ]
    )
    store.save_frontier_emas(
        [
            {
                "run_id": run_id,
                "iteration": stats.iteration,
                "tuple_id": task,
                "success_rate": state.last_rate,
                "success_ema": state.success_ema,
                "weight": frontier_weight(state.success_ema, cfg.frontier_sigma),
                "attempts": state.attempts,
                "unscored": state.unscored,
            }
            for task, state in observed.items()
        ]
    )
    store.refresh_snapshot()
