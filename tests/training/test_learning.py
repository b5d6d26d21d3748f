"""It learns (docs/training.md): the loop improves a policy on real tuples, with the configs of
`make demo-learn`. Tuples of files.bin_scripts come from the synthesis flow (training and held-out
tuples from two seeds), the GUI teacher's trajectories from the rollout flow, every reward from the
tuple's own reward.py on a real desktop. SFT of the tiny CPU policy raises its greedy success on the
held-out tuples from none; GSPO from that policy raises its mean reward over iterations at the
sampling temperature, on a fixed seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra.settings import PROJECT_ROOT
from tests.desktop import conftest as desktop_fixtures

desktop_python = desktop_fixtures.desktop_python  # the desktop fixture, found by name
# Six minutes of the suite's thirty: it runs in `make test-learning` (docs/training.md), not `make test`.
pytestmark = [pytest.mark.slow, pytest.mark.learning]
FAMILY = "files.bin_scripts"


def _synth(count: int, seed: int, out: Path) -> Path:
    from flows.synthesis import synthesis_flow
    from tasks.models import SynthParams, TupleStatus

    summary = synthesis_flow(
        SynthParams(count=count, seed=seed, families=[FAMILY], workers=2, teacher_k=0, out=str(out))
    )
    assert summary.count(TupleStatus.EXPORTED) == count, summary.outcomes
    return out / "final"


def test_sft_then_gspo_raise_the_reward_on_real_tuples(
    prefect_harness, isolated_settings, tmp_path, desktop_python, monkeypatch
):
    from flows.rollout import rollout_flow
    from flows.training import training_flow
    from infra.settings import get_settings
    from tasks.models import RolloutParams
    from training.config import TrainingParams, load_config
    from warehouse.query import run_query

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    warehouse = isolated_settings.warehouse_path
    train, held_out = _synth(8, 1, tmp_path / "train"), _synth(3, 2, tmp_path / "held-out")
    teacher = rollout_flow(
        RolloutParams(
            bundles=[str(b) for b in sorted(train.iterdir())], k=2, workers=2, out=str(tmp_path / "teacher")
        )
    )
    assert teacher.solved == 16, teacher.outcomes

    sft_config = load_config(
        PROJECT_ROOT / "configs" / "learn-sft.yaml",
        {
            "datasets": [str(tmp_path / "teacher")],
            "output_dir": str(tmp_path / "sft"),
            "eval_tuples": [str(held_out)],
            "eval_steps": None,  # before and after only: the demo's per-epoch curve costs a minute
        },
    )
    sft = training_flow(TrainingParams(config=sft_config, warehouse=warehouse))
    before, after = sft.evaluations  # greedy, one episode per held-out tuple
    assert (before["step"], after["step"]) == (0, sft.steps) and before["scored"] == after["scored"] == 3
    assert before["success_rate"] == 0.0  # a random policy writes no usable call
    assert after["success_rate"] == 1.0, sft.evaluations  # what it learned carries to tuples it never saw

    gspo_config = load_config(
        PROJECT_ROOT / "configs" / "learn-gspo.yaml",
        {
            "model": str(tmp_path / "sft"),
            "tuples": [str(train)],
            "eval_tuples": [str(held_out)],
            "output_dir": str(tmp_path / "gspo"),
            "iterations": 6,
            "eval_every": 6,
        },
    )
    gspo = training_flow(TrainingParams(config=gspo_config, warehouse=warehouse))
    rewards = [r[0] for r in run_query(warehouse, "SELECT reward_mean FROM gspo_curves "
                                                  f"WHERE run_id = '{gspo.run_id}' ORDER BY iteration").rows]  # fmt: skip
    print(f"learning: sft held-out {before['success_rate']} -> {after['success_rate']}; gspo rewards {rewards}; "
          f"gspo held-out {[e['success_rate'] for e in gspo.evaluations]}")  # fmt: skip
    assert len(rewards) == 6 and all(r is not None for r in rewards)
    # every reward came from a bundle's reward.py: 32 scored episodes per iteration
    scored = run_query(
        warehouse, f"SELECT count(reward) FROM gspo_rollouts WHERE run_id = '{gspo.run_id}'"
    ).rows
    assert scored == [(6 * 32,)]
    # the reward at the last iterations exceeds the first iteration's, by more than its noise
    # (32 episodes at p ~ 0.25: a standard error of ~0.08)
    assert sum(rewards[-2:]) / 2 > rewards[0] + 0.2, rewards
    first, last = gspo.evaluations  # held-out, at the rollout temperature, 4 episodes each
    assert (first["iteration"], last["iteration"]) == (0, 6)
    assert last["success_rate"] > first["success_rate"], gspo.evaluations
