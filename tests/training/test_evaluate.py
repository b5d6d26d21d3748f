"""Held-out evaluation (training/evaluate.py) without desktops: what counts as held out, the figures
of an evaluation, and greedy decoding of the local policy. The evaluation on real desktops runs in
tests/training/test_learning.py."""

from __future__ import annotations

import io
import types

import pytest
import torch
from PIL import Image

from infra.errors import ConfigError
from training.config import load_config
from training.evaluate import Evaluation, check_held_out, dataset_task_ids, task_id_of
from training.gspo import run_gspo
from training.local_policy import LocalPolicy
from training.tiny import tiny_policy

from .test_data import write_dataset


def test_a_task_in_both_the_training_data_and_the_evaluation_is_refused(tmp_path):
    write_dataset(tmp_path / "ds", n_steps=2, rid="files.bin_scripts-aa11__r0")
    write_dataset(tmp_path / "ds2", n_steps=2, rid="files.bin_scripts-bb22__r3")
    trained = dataset_task_ids([tmp_path / "ds", tmp_path / "ds2"])
    assert trained == {"files.bin_scripts-aa11", "files.bin_scripts-bb22"}  # rollout ids map to their tasks
    check_held_out({"files.bin_scripts-cc33"}, trained)
    with pytest.raises(
        ConfigError, match=r"1 evaluation task\(s\) are also trained on \(e.g. files.bin_scripts-bb22\)"
    ):
        check_held_out({"files.bin_scripts-bb22", "files.bin_scripts-cc33"}, trained)
    assert task_id_of("calc.x-1__r12") == "calc.x-1" and task_id_of("calc.x-1") == "calc.x-1"


def test_gspo_refuses_held_out_tuples_it_would_train_on_before_any_work(tmp_path):
    config = load_config(None, {"kind": "gspo", "model": "tiny:qwen2-vl", "tuples": ["x"], "group_size": 2,
                                "tasks_per_iteration": 2, "minibatches": 2, "output_dir": str(tmp_path / "g")})  # fmt: skip
    collected = []
    evaluate = types.SimpleNamespace(task_ids={"t2", "t9"})
    with pytest.raises(ConfigError, match="would not be held out"):
        run_gspo(config, lambda *a: collected.append(a), ["t1", "t2"], evaluate=evaluate)
    assert not collected and not (tmp_path / "g").exists()


def test_an_evaluation_rates_scored_episodes_only():
    evaluation = Evaluation(
        step=8, iteration=2, tuples=3, rewards=[1.0, 0.5, None, 1.0, 0.0, None], seconds=2.0
    )
    row = evaluation.row()
    assert (row["episodes"], row["scored"], row["successes"]) == (6, 4, 2)  # an unscored episode is never a 0
    assert row["success_rate"] == 0.5 and row["reward_mean"] == pytest.approx(0.625)
    empty = Evaluation(step=0, iteration=None, tuples=1, rewards=[None])
    assert empty.success_rate is None and empty.reward_mean is None and empty.row()["successes"] == 0


def test_temperature_zero_decodes_greedily():
    torch.manual_seed(0)
    model, processor = tiny_policy()
    model.eval()
    frame = io.BytesIO()
    Image.new("RGB", (1280, 800), "white").save(frame, format="PNG")
    observation = types.SimpleNamespace(step=0, screenshot_png=frame.getvalue(), last_results=[])

    def reply(temperature: float) -> str:
        policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=temperature, max_tokens=24)
        policy.start(
            types.SimpleNamespace(id="t", instruction="Make the scripts executable."), (1280, 800), None
        )
        step = policy.step(observation)
        assert torch.isfinite(policy.turns[0].old_logps).all()
        return step.assistant_raw

    torch.manual_seed(1)
    first = reply(0.0)
    torch.manual_seed(2)  # another seed: greedy decoding does not draw
    assert reply(0.0) == first
    sampled = set()
    for seed in range(3):
        torch.manual_seed(seed)
        sampled.add(reply(1.0))
    assert len(sampled) > 1  # the random tiny policy at temperature 1 does draw
