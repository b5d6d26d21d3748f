"""GSPO's rollouts in the trajectory dataset and the `rollouts` tables (training/gspo_dataset.py):
each iteration's played episodes land in <output_dir>/rollouts/iteration-NNNN/ and under the rollout
run <gspo run>-iNNNN, SFT reads them back, and a redone iteration replaces its rows instead of
doubling them. Episodes are sampled from the tiny VLM by a fake `collect` (one step each, rewards
chosen), as in test_gspo_resume, with the trajectory a desktop episode would have left."""

from __future__ import annotations

import duckdb
import pytest

from infra.trajectories import Screenshots, Trajectory, TrajectoryStep, read_trajectories
from tasks.models import Difficulty, Domain, Platform, Scenario, TaskSpec
from tasks.rollout.runner import Episode
from training.data import sft_samples
from training.gspo import run_gspo
from training.gspo_dataset import iteration_dataset, iteration_run_id, record_rollouts

from .test_gspo import SCREEN, _config, _png, _rollout

REWARDS = {1: [1.0, 0.0, 0.0, 0.0], 2: [1.0, 1.0, 0.0, None]}
SPEC = TaskSpec(id="calc.pad-0001", instruction="Fill column B.", context="", apps=["calc"],
                platform=Platform.DESKTOP, domain=Domain.OFFICE_ADMIN, difficulty=Difficulty.EASY,
                scenario=Scenario.PERSONAL, persona="an accountant", taxonomy_leaf="calc/sheet/pad",
                family="calc.pad_ids", template="calc.pad_ids:plain", seed=1)  # fmt: skip


def _episode(rollout, model: str, spec: TaskSpec = SPEC) -> Episode:
    """The trajectory a one-step episode on a desktop leaves: a click, then the grader's reward."""
    rid = f"{spec.id}__r{rollout.repeat}"
    reply = "".join(str(t.completion_ids.tolist()) for t in rollout.turns)
    step = TrajectoryStep(step=0, model_step=0, screenshot="screenshots/step_000.png", shard="",
                          member=f"{rid}/step_000.png", cursor_before=(0, 0), action="left_click",
                          coordinate_screen=(10, 20), raw_action_args={"action": "left_click", "coordinate": [10, 20]},
                          assistant_raw=reply)  # fmt: skip
    trajectory = Trajectory(task_id=rid, instruction=spec.instruction, reward=rollout.reward,
                            terminated=True, screen=SCREEN, model=model, steps=[step], tuple_id=spec.id,
                            repeat=rollout.repeat, policy="gspo", coordinate_space="screen")  # fmt: skip
    return Episode(trajectory, {step.member: _png("white")})


class Collector:
    def __call__(self, make_policy, iteration, task_ids):
        group = []
        for k, reward in enumerate(REWARDS[iteration]):
            policy = make_policy()
            rollout = _rollout(policy, task_ids[0], k, reward, steps=1)
            rollout.spec, rollout.episode = SPEC, _episode(rollout, policy.model)
            group.append(rollout)
        return [group]


def _rows(warehouse, query: str, *params) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute(query, list(params)).fetchall()


@pytest.fixture(scope="module")
def gspo_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gspo-dataset")
    out, warehouse = tmp / "gspo", tmp / "w.duckdb"
    config = _config(iterations=2, output_dir=str(out), max_tokens=16)
    result = run_gspo(config, Collector(), [SPEC.id], warehouse=warehouse)
    return result, out, warehouse


def test_each_iterations_rollouts_are_a_trajectory_dataset(gspo_run):
    result, out, _ = gspo_run
    for iteration, rewards in REWARDS.items():
        dataset = iteration_dataset(out, iteration)
        records = list(read_trajectories(dataset))
        assert [(t.task_id, t.reward) for t in records] == [
            (f"{SPEC.id}__r{k}", r) for k, r in enumerate(rewards)
        ]
        assert {t.model for t in records} == {f"gspo:{result.run_id}"}
        shots = Screenshots(dataset)
        step = records[0].steps[0]
        assert shots.read(step.shard, step.member) == _png("white")
        shots.close()


def test_each_iterations_rollouts_are_rows_keyed_by_run_and_iteration(gspo_run):
    result, out, warehouse = gspo_run
    rows = _rows(
        warehouse,
        "SELECT run_id, rollout_id, reward, family, app, model_steps, dataset FROM rollouts ORDER BY ALL",
    )
    expected = [
        (iteration_run_id(result.run_id, i), f"{SPEC.id}__r{k}", r, SPEC.family, "calc", 1,
         str(iteration_dataset(out, i)))
        for i, rewards in REWARDS.items() for k, r in enumerate(rewards)
    ]  # fmt: skip
    assert sorted(rows, key=repr) == sorted(expected, key=repr)
    steps = _rows(warehouse, "SELECT count(*) FROM rollout_steps WHERE run_id LIKE ?", f"{result.run_id}-i%")
    assert steps == [(8,)]
    runs = _rows(warehouse, "SELECT run_id, summary->>'solved' FROM rollout_runs ORDER BY run_id")
    assert runs == [(iteration_run_id(result.run_id, 1), "1"), (iteration_run_id(result.run_id, 2), "2")]
    # the analysts' view counts them with every other run's: 8 rollouts, 3 solved
    by_family = _rows(warehouse, "SELECT rollouts, success_rate FROM rollout_by_family")
    assert by_family == [(8, 3 / 8)]


def test_sft_trains_on_a_gspo_iteration(gspo_run):
    _, out, _ = gspo_run
    samples = list(sft_samples([iteration_dataset(out, 2)], "qwen2.5-vl"))
    assert len(samples) == 2  # the two solved rollouts of iteration 2, one slice each


def test_a_redone_iteration_replaces_its_rows_and_records(gspo_run, tmp_path):
    result, out, warehouse = gspo_run
    from warehouse.store import Warehouse

    # iteration 2 again (a kill between its rows and its checkpoint): same rollouts, one reward changed
    group = []
    for k, reward in enumerate([0.0, 1.0, 0.0, None]):
        rollout = type("R", (), {})()
        rollout.repeat, rollout.reward, rollout.turns = k, reward, []
        rollout.spec, rollout.episode = SPEC, _episode(rollout, f"gspo:{result.run_id}")
        group.append(rollout)
    assert record_rollouts(Warehouse(warehouse), out, result.run_id, 2, [group]) == 4
    assert [t.reward for t in read_trajectories(iteration_dataset(out, 2))] == [0.0, 1.0, 0.0, None]
    rows = _rows(
        warehouse, "SELECT reward FROM rollouts WHERE run_id = ? ORDER BY repeat",
        iteration_run_id(result.run_id, 2),
    )  # fmt: skip
    assert rows == [(0.0,), (1.0,), (0.0,), (None,)]
