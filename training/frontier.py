"""Frontier sampling (ScaleCUA §3.3, seeds/003): which tasks a GSPO iteration rolls out.

Per task, an exponential moving average of its success rate p̂ (success: reward == 1.0, the
paper's per-task *success* rate; partial credit still shapes the advantages, not the draw). After
each iteration the task's n scored rollouts give a rate r and p̂ ← (1 - α) p̂ + α r (α =
`frontier_ema`). The Gaussian kernel w = exp(-(p̂ - μ)² / 2σ²), μ = 0.5, peaks where a group's
rewards spread most (p̂ = 0.5 has the largest Bernoulli variance, so the most non-zero advantages)
and decays symmetrically towards tasks always solved or never solved. A share γ is kept uniform
for exploration: each task's chance is (1 - γ) w / Σw + γ / N, and an iteration's tasks are drawn
without replacement by successive sampling (each draw among the tasks not drawn yet, in proportion
to those chances), seeded by (seed, iteration) so a resumed run draws what the killed one would
have drawn.

Ours, where the paper is silent or we differ:
- an untried task has no p̂ and is weighted as p̂ = 0.5, the kernel's peak: nothing is known about
  it, so it is the most informative to try — new tasks are drawn first. ScaleCUA instead rolls out
  every task before RL to seed p̂; here those first draws are that measurement, and the first
  observed rate becomes p̂ as is (no blending with a made-up prior);
- a null reward (the grader gave no score) is left out of the rate, never read as a failure; an
  iteration whose rollouts are all unscored leaves p̂ as it was;
- no [p_min, p_max] filter before RL: a task that drifts to 0 or 1 keeps a small weight
  (exp(-2) at σ = 0.25) and the γ share, so it can come back if the policy changes.

Pure functions, no I/O: training/gspo.py keeps the state and the warehouse records it.

Example:
    >>> round(frontier_weight(0.5, 0.25), 3), round(frontier_weight(1.0, 0.25), 3)
    (1.0, 0.135)
    >>> draw_tasks(["a", "b", "c"], [None, 0.0, 1.0], 2, sigma=0.25, gamma=0.2, seed=0, iteration=1)
    ['c', 'a']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

TARGET = 0.5  # μ: the success rate whose groups carry the most learning signal
SUCCESS = 1.0  # the reward that counts as a success (as for SFT's success filter)


@dataclass(frozen=True)
class TaskFrontier:
    """One task's frontier state: its success EMA (None until a rollout of it was scored)."""

    success_ema: float | None = None
    attempts: int = 0  # scored rollouts so far
    unscored: int = 0  # rollouts the grader gave no score
    last_iteration: int | None = None  # the latest iteration the task was drawn in
    last_rate: float | None = None  # the success rate of that iteration's scored rollouts


def frontier_weight(ema: float | None, sigma: float) -> float:
    """The Gaussian kernel exp(-(p̂ - 0.5)² / 2σ²); an untried task (None) sits at the peak."""
    p = TARGET if ema is None else ema
    return math.exp(-((p - TARGET) ** 2) / (2 * sigma**2))


def draw_probabilities(emas: Sequence[float | None], *, sigma: float, gamma: float) -> list[float]:
    """Each task's chance to be drawn: (1 - γ) w_i / Σw + γ / N (sums to 1)."""
    if not emas:
        return []
    n = len(emas)
    weights = [frontier_weight(e, sigma) for e in emas]
    # A narrow σ can underflow every weight far from 0.5 to 0; the floor keeps Σw > 0 and every
    # task drawable, so a batch larger than the frontier still fills (in kernel order).
    weights = [max(w, np.finfo(float).tiny) for w in weights]
    total = sum(weights)
    return [(1 - gamma) * w / total + gamma / n for w in weights]


def draw_tasks(
    task_ids: Sequence[str],
    emas: Sequence[float | None],
    k: int,
    *,
    sigma: float,
    gamma: float,
    seed: int,
    iteration: int,
) -> list[str]:
    """`min(k, N)` distinct task ids, drawn by frontier weight; the same for the same inputs."""
    if len(task_ids) != len(emas):
        raise ValueError(f"{len(task_ids)} task ids but {len(emas)} EMAs")
    if not task_ids:
        return []
    p = np.asarray(draw_probabilities(emas, sigma=sigma, gamma=gamma), dtype=np.float64)
    rng = np.random.default_rng([seed, iteration])  # SeedSequence entropy: no collisions across pairs
    # numpy's choice without replacement is successive sampling: an iid stream kept at first occurrence
    picked = rng.choice(len(task_ids), size=min(k, len(task_ids)), replace=False, p=p / p.sum())
    return [task_ids[i] for i in picked]


def update_ema(ema: float | None, rate: float, alpha: float) -> float:
    """p̂ ← (1 - α) p̂ + α r; the first observed rate starts the average."""
    return rate if ema is None else (1 - alpha) * ema + alpha * rate


def success_rate(rewards: Sequence[float | None]) -> float | None:
    """The share of scored rewards that are a success; None when none was scored."""
    scored = [r for r in rewards if r is not None]
    return sum(r == SUCCESS for r in scored) / len(scored) if scored else None


def observe(
    state: TaskFrontier, rewards: Sequence[float | None], *, alpha: float, iteration: int
) -> TaskFrontier:
    """The task's state after an iteration whose rollouts of it earned `rewards`."""
    rate = success_rate(rewards)
    scored = sum(r is not None for r in rewards)
    return replace(
        state,
        success_ema=state.success_ema if rate is None else update_ema(state.success_ema, rate, alpha),
        attempts=state.attempts + scored,
        unscored=state.unscored + len(rewards) - scored,
        last_iteration=iteration,
        last_rate=rate,
    )
