"""Frontier sampling (training/frontier.py): the Gaussian weights, the uniform share, seeded draws
without replacement, the success EMA, and what a GSPO run records of it (gspo_frontier_emas and the
gspo_frontier view), driven through `run_gspo` with a fake `collect` that returns chosen rewards."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from training.frontier import (
    TaskFrontier,
    draw_probabilities,
    draw_tasks,
    frontier_weight,
    observe,
    update_ema,
)
from training.gspo import Rollout, run_gspo
from warehouse.query import run_query
from warehouse.store import Warehouse

from .test_gspo import _config

# one of each: untried, at the frontier, between, never solved, always solved
POOL = ["new", "half", "quarter", "never", "always"]
EMAS = [None, 0.5, 0.25, 0.0, 1.0]


@pytest.mark.parametrize("sigma", [0.1, 0.25, 0.5])
def test_weights_peak_at_one_half_and_fall_off_symmetrically(sigma):
    assert frontier_weight(0.5, sigma) == 1.0
    assert frontier_weight(None, sigma) == 1.0  # untried: treated as the most informative
    distances = [0.05 * i for i in range(1, 11)]
    below = [frontier_weight(0.5 - d, sigma) for d in distances]
    above = [frontier_weight(0.5 + d, sigma) for d in distances]
    assert below == pytest.approx(above)
    assert all(a > b for a, b in zip([1.0, *below], below, strict=False))  # falls with the distance
    assert frontier_weight(0.5 + sigma, sigma) == pytest.approx(math.exp(-0.5))  # one σ out: e^-1/2


def test_the_uniform_share_mixes_in_and_gamma_one_is_uniform():
    for gamma in (0.0, 0.2, 0.7, 1.0):
        assert sum(draw_probabilities(EMAS, sigma=0.25, gamma=gamma)) == pytest.approx(1.0)
    assert draw_probabilities(EMAS, sigma=0.25, gamma=1.0) == pytest.approx([0.2] * 5)
    weights = [frontier_weight(e, 0.25) for e in EMAS]
    pure = draw_probabilities(EMAS, sigma=0.25, gamma=0.0)
    assert pure == pytest.approx([w / sum(weights) for w in weights])
    mixed = draw_probabilities(EMAS, sigma=0.25, gamma=0.2)
    assert mixed == pytest.approx([0.8 * p + 0.2 / 5 for p in pure])
    # a narrow σ underflows the far weights to 0: they stay drawable, so a batch still fills
    assert len(draw_tasks(POOL, EMAS, 5, sigma=0.005, gamma=0.0, seed=0, iteration=1)) == 5


def test_seeded_draws_track_the_probabilities_and_never_repeat_within_an_iteration():
    probs = draw_probabilities(EMAS, sigma=0.25, gamma=0.2)
    n = 4000
    singles = Counter(
        draw_tasks(POOL, EMAS, 1, sigma=0.25, gamma=0.2, seed=3, iteration=i)[0] for i in range(n)
    )
    for task, p in zip(POOL, probs, strict=True):  # sd of a frequency here is < 0.008
        assert abs(singles[task] / n - p) < 0.03, (task, singles[task] / n, p)

    included = Counter()
    for i in range(n):
        drawn = draw_tasks(POOL, EMAS, 3, sigma=0.25, gamma=0.2, seed=3, iteration=i)
        assert len(drawn) == len(set(drawn)) == 3
        included.update(drawn)
    # inclusion follows the weights: the frontier (and the untried) most, the solved/unsolved least
    assert min(included["new"], included["half"]) > included["quarter"] + 0.05 * n
    assert included["quarter"] > max(included["never"], included["always"]) + 0.1 * n

    again = draw_tasks(POOL, EMAS, 3, sigma=0.25, gamma=0.2, seed=3, iteration=7)
    assert again == draw_tasks(POOL, EMAS, 3, sigma=0.25, gamma=0.2, seed=3, iteration=7)
    per_iteration = {
        tuple(draw_tasks(POOL, EMAS, 3, sigma=0.25, gamma=0.2, seed=3, iteration=i)) for i in range(20)
    }
    per_seed = {
        tuple(draw_tasks(POOL, EMAS, 3, sigma=0.25, gamma=0.2, seed=s, iteration=7)) for s in range(20)
    }
    assert len(per_iteration) > 5 and len(per_seed) > 5
    assert sorted(draw_tasks(POOL, EMAS, 9, sigma=0.25, gamma=0.2, seed=0, iteration=1)) == sorted(POOL)


def test_the_ema_starts_at_the_first_rate_then_moves_by_alpha():
    assert update_ema(None, 0.25, 0.2) == 0.25  # no prior to blend with
    assert update_ema(0.2, 1.0, 0.5) == pytest.approx(0.6)
    ema = None
    for rate in (1.0, 0.0, 0.5):  # 1.0, then 0.8 * 1.0 + 0.2 * 0.0, then 0.8 * 0.8 + 0.2 * 0.5
        ema = update_ema(ema, rate, 0.2)
    assert ema == pytest.approx(0.74)


def test_null_rewards_are_left_out_and_partial_credit_is_not_a_success():
    state = observe(TaskFrontier(), [1.0, None, 0.0, None], alpha=0.5, iteration=3)
    assert state == TaskFrontier(success_ema=0.5, attempts=2, unscored=2, last_iteration=3, last_rate=0.5)
    unscored = observe(state, [None] * 4, alpha=0.5, iteration=4)  # no score: the EMA stays put
    assert (unscored.success_ema, unscored.attempts, unscored.unscored) == (0.5, 2, 6)
    assert unscored.last_rate is None and unscored.last_iteration == 4
    assert observe(TaskFrontier(), [0.5, 0.9, 0.99], alpha=0.5, iteration=1).success_ema == 0.0


# per task, the rewards of its G = 4 rollouts whenever it is drawn
REWARDS = {
    "solved": [1.0] * 4,
    "coin": [1.0, 0.0, 0.0, 1.0],
    "broken": [None] * 4,
    "hard": [0.0, 0.2, 0.0, 0.5],
}


def test_a_gspo_run_draws_by_frontier_and_records_each_tasks_ema(tmp_path):
    drawn: dict[int, list[str]] = {}

    def collect(make_policy, iteration, task_ids):  # chosen rewards, no episodes: only the draw matters
        drawn[iteration] = task_ids
        return [[Rollout(t, k, r) for k, r in enumerate(REWARDS[t])] for t in task_ids]

    config = _config(tasks_per_iteration=2, group_size=4, minibatches=2, iterations=6,
                     output_dir=str(tmp_path / "gspo"))  # fmt: skip
    warehouse = tmp_path / "w.duckdb"
    result = run_gspo(config, collect, list(REWARDS), warehouse=warehouse)
    assert sorted(drawn) == list(range(1, 7)) and all(len(set(d)) == 2 for d in drawn.values())

    # the EMAs by hand (α = frontier_ema), and each draw from the EMAs of the iterations before it
    alpha, emas, history = config.frontier_ema, {}, {}
    for iteration in range(1, 7):
        assert drawn[iteration] == draw_tasks(
            list(REWARDS), [emas.get(t) for t in REWARDS], 2,
            sigma=config.frontier_sigma, gamma=config.frontier_gamma, seed=config.seed, iteration=iteration,
        )  # fmt: skip
        for task in drawn[iteration]:
            scored = [r for r in REWARDS[task] if r is not None]
            if scored:
                rate = sum(r == 1.0 for r in scored) / len(scored)
                emas[task] = rate if task not in emas else (1 - alpha) * emas[task] + alpha * rate
            history[(iteration, task)] = emas.get(task)

    rows = run_query(warehouse, f"SELECT iteration, tuple_id, success_ema, weight, attempts, unscored "
                                f"FROM gspo_frontier_emas WHERE run_id = '{result.run_id}'").rows  # fmt: skip
    assert {(r[0], r[1]): r[2] for r in rows} == pytest.approx(history)
    for _, task, ema, weight, attempts, unscored in rows:
        assert weight == pytest.approx(frontier_weight(ema, config.frontier_sigma))
        assert attempts % 4 == 0 and (unscored == 0) == (task != "broken")

    frontier = run_query(warehouse, f"SELECT tuple_id, success_ema, attempts, unscored, draws, last_iteration "
                                    f"FROM gspo_frontier WHERE run_id = '{result.run_id}'").rows  # fmt: skip
    times = Counter(t for d in drawn.values() for t in d)
    assert {r[0] for r in frontier} == set(times)  # one row per task drawn at least once
    for task, ema, attempts, unscored, draws, last in frontier:
        assert draws == times[task] and last == max(i for i, d in drawn.items() if task in d)
        assert ema == pytest.approx(emas.get(task))
        if task == "broken":  # never scored: no EMA (not 0), every rollout counted as unscored
            assert ema is None and attempts == 0 and unscored == 4 * draws
        else:
            assert attempts == 4 * draws and unscored == 0
    if "solved" in times:
        assert dict((r[0], r[1]) for r in frontier)["solved"] == 1.0  # rewards 1.0 every time


def test_the_frontier_store_reads_each_tasks_state_as_of_an_iteration(tmp_path):
    store = Warehouse(tmp_path / "w.duckdb")
    rows = [(1, "a", 0.5, 4), (2, "a", 0.25, 8), (2, "b", None, 0), (3, "a", 0.125, 12)]
    for iteration, task, ema, attempts in rows:
        store.save_frontier_emas([{"run_id": "r", "iteration": iteration, "tuple_id": task, "success_rate": ema,
                                   "success_ema": ema, "weight": 1.0, "attempts": attempts, "unscored": 0}])  # fmt: skip
    as_of_2 = {r["tuple_id"]: (r["last_iteration"], r["success_ema"], r["attempts"]) for r in
               store.frontier_emas("r", through_iteration=2)}  # fmt: skip
    assert as_of_2 == {"a": (2, 0.25, 8), "b": (2, None, 0)}  # iteration 3's row is not yet
    assert store.frontier_emas("r", through_iteration=0) == []
    assert store.frontier_emas("other", through_iteration=9) == []
