"""GSPO resume (training/gspo.py, training/checkpoint.py): a run started again on its output_dir goes
on from its last checkpoint — weights, AdamW state, step and iteration, the frontier EMAs from the
warehouse — and a truncated, half-written or missing checkpoint is skipped or refused, never a
silent restart from scratch. Episodes are sampled from the tiny VLM by a fake `collect` (one step
each) with chosen rewards, so every group has a reward spread and every minibatch takes a step."""

from __future__ import annotations

import logging

import pytest
import torch
from transformers import Qwen2VLForConditionalGeneration

from training.checkpoint import CheckpointError
from training.gspo import OPTIMIZER, run_gspo
from training.tiny import tiny_policy
from warehouse.store import Warehouse

from .test_gspo import _config, _rollout

# the rewards of the G = 4 rollouts at each iteration: success rates 0.75, 0.25, 0.5, 0.75
REWARDS = {1: [1.0, 1.0, 1.0, 0.0], 2: [1.0, 0.0, 0.0, 0.0], 3: [1.0, 0.0, 1.0, 0.0], 4: [1.0, 1.0, 0.0, 1.0]}


class Collector:
    """Rolls out the current policy on the drawn task; keeps what each iteration started from."""

    def __init__(self) -> None:
        self.iterations: list[int] = []
        self.start_weights: dict[int, torch.Tensor] = {}

    def __call__(self, make_policy, iteration, task_ids):
        self.iterations.append(iteration)
        group = []
        for k, reward in enumerate(REWARDS[iteration]):
            policy = make_policy()
            self.start_weights.setdefault(iteration, policy._model.lm_head.weight.detach().clone())
            group.append(_rollout(policy, task_ids[0], k, reward, steps=1))
        return [group]


def _adam_steps(checkpoint) -> set[int]:
    state = torch.load(checkpoint / OPTIMIZER, weights_only=True)["state"]
    return {int(s["step"]) for s in state.values()}


def test_a_gspo_run_resumes_from_its_last_complete_checkpoint(tmp_path, caplog):
    out, warehouse = tmp_path / "gspo", tmp_path / "w.duckdb"
    store = Warehouse(warehouse)

    def run(iterations: int, collector: Collector):
        # one task: the draw is fixed, so the EMAs show what the resumed run read back
        config = _config(iterations=iterations, output_dir=str(out), max_tokens=16, frontier_ema=0.5)
        return run_gspo(config, collector, ["task"], warehouse=warehouse)

    first = Collector()
    one = run(1, first)
    assert first.iterations == [1] and one.steps == 2 and one.resumed_from is None
    assert _adam_steps(out / "checkpoint-2") == {2}  # two minibatches: two AdamW steps
    fresh = tiny_policy(0)[0].lm_head.weight

    second = Collector()
    two = run(2, second)
    assert second.iterations == [2] and [s.iteration for s in two.iterations] == [2]  # only iteration 2 ran
    assert two.run_id == one.run_id and two.resumed_from == 2 and two.steps == 4
    saved = Qwen2VLForConditionalGeneration.from_pretrained(out / "checkpoint-2").lm_head.weight
    assert torch.equal(second.start_weights[2], saved) and not torch.equal(saved, fresh)
    assert _adam_steps(out / "checkpoint-4") == {4}  # the AdamW state was reloaded, its counts go on
    assert store.training_run(two.run_id)["resumed_from"] == 2
    assert [(s["iteration"], s["step"]) for s in store.training_steps(two.run_id)] == [(1, 2), (2, 4)]
    (ema,) = store.frontier_emas(two.run_id, through_iteration=2)  # 0.75, then 0.5 * 0.75 + 0.5 * 0.25
    assert (ema["last_iteration"], ema["success_ema"], ema["attempts"]) == (2, pytest.approx(0.5), 8)

    # a truncated newest checkpoint is skipped (with the reason logged): back to checkpoint-2, and
    # iteration 2 redone from the EMAs as of iteration 1 (not on top of the first iteration 2's)
    optimizer = out / "checkpoint-4" / OPTIMIZER
    optimizer.write_bytes(optimizer.read_bytes()[:100])
    third = Collector()
    with caplog.at_level(logging.WARNING, logger="training.checkpoint"):
        three = run(3, third)
    assert "checkpoint-4" in caplog.text and "truncated" in caplog.text
    assert third.iterations == [2, 3] and three.resumed_from == 2 and three.steps == 6
    assert torch.equal(third.start_weights[2], saved)
    emas = {
        r["last_iteration"]: r
        for r in (store.frontier_emas(three.run_id, through_iteration=i)[0] for i in (2, 3))
    }
    assert (emas[2]["success_ema"], emas[2]["attempts"]) == (pytest.approx(0.5), 8)
    assert (emas[3]["success_ema"], emas[3]["attempts"]) == (pytest.approx(0.5), 12)
    assert [s["step"] for s in store.training_steps(three.run_id)] == [2, 4, 6]  # the redone row replaced

    # a save that dies half-way leaves the checkpoints before it as they were; a killed save's temp
    # folder and a checkpoint folder without its state file are not resumed from
    real_save = torch.save

    def dies_mid_save(obj, path, *args, **kwargs):
        if str(path).endswith(OPTIMIZER):
            raise OSError(28, "No space left on device")
        return real_save(obj, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(torch, "save", dies_mid_save)
        with pytest.raises(OSError, match="No space left"):
            run(4, Collector())
    assert store.training_run(three.run_id)["status"] == "failed"
    assert not (out / "checkpoint-8").exists() and not list(out.glob(".tmp-*"))
    (out / ".tmp-checkpoint-9-1").mkdir()  # what a SIGKILL mid-save leaves
    (out / "checkpoint-9").mkdir()  # a folder with no trainer_state.json
    fourth = Collector()
    four = run(4, fourth)
    assert fourth.iterations == [4] and four.resumed_from == 6 and _adam_steps(out / "checkpoint-8") == {8}

    # nothing complete left: a clear error, not a run from the base weights
    for checkpoint in out.glob("checkpoint-*"):
        (checkpoint / "trainer_state.json").unlink(missing_ok=True)
    with pytest.raises(CheckpointError, match="no complete checkpoint in .*checkpoint-8: no trainer_state"):
        run(5, Collector())
