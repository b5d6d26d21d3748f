"""SFT (training/sft.py, training/collate.py, training/tiny.py): the assistant-only label mask on a
long sliced trajectory, and end to end — teacher trajectories of a real tuple rolled out on real
desktops, the tiny VLM trained on them, its loss going down, its checkpoint reloading with the same
logits, a killed run resuming, and every step in the warehouse."""

from __future__ import annotations

import shutil

import pytest
import torch
from transformers import Qwen2VLForConditionalGeneration

from infra.trajectories import Screenshots, read_trajectories
from tests.desktop import conftest as desktop_fixtures
from tests.rollout.conftest import export_bundle
from training.collate import IGNORE, SFTCollator, collate, encode_sample
from training.config import load_config
from training.data import ChatSample, sft_samples, trajectory_samples
from training.sft import load_processor, run_sft
from training.tiny import save_tiny_policy, tiny_processor

from .test_data import write_dataset

desktop_python = desktop_fixtures.desktop_python
FAMILY = "qwen2.5-vl"


def label_runs(labels: torch.Tensor, tokenizer) -> list[str]:
    """The decoded runs of consecutive trained (label != -100) tokens of one sample."""
    runs, current = [], []
    for label in labels.tolist() + [IGNORE]:
        if label != IGNORE:
            current.append(label)
        elif current:
            runs.append(tokenizer.decode(current))
            current = []
    return runs


def trained_replies(sample: ChatSample) -> list[str]:
    """What the mask must keep: each trained assistant reply and the <|im_end|> that closes it."""
    return [m["content"] + "<|im_end|>" for m, t in zip(sample.messages, sample.train, strict=True) if t]


def test_labels_are_exactly_the_new_assistant_turns_of_each_slice(tmp_path):
    write_dataset(tmp_path / "ds", n_steps=32)  # 32 turns: slices 0-19 and 20-29 and 30-31
    (trajectory,) = read_trajectories(tmp_path / "ds")
    shots = Screenshots(tmp_path / "ds")
    samples = trajectory_samples(trajectory, shots, FAMILY)
    shots.close()
    processor = tiny_processor()
    image_pad = processor.tokenizer.convert_tokens_to_ids("<|image_pad|>")
    assert len(samples) >= 3
    for sample in samples:
        features = encode_sample(processor, sample)
        # the prompt, every screenshot's tokens, the tool-response wrappers and the earlier slices'
        # assistant turns carry no loss: what is left decodes to exactly this slice's new replies
        assert label_runs(features["labels"], processor.tokenizer) == trained_replies(sample)
        assert not (features["labels"] == image_pad).any()
        assert (features["input_ids"] == image_pad).any()  # the screenshots are in the input
        assert features["image_grid_thw"].shape[0] == sum(
            isinstance(m["content"], list) and any(p["type"] == "image" for p in m["content"])
            for m in sample.messages
        )
    batch = SFTCollator(processor)(samples[:2])  # right-padded: pads are neither attended nor trained
    pad = batch["attention_mask"] == 0
    assert pad.any() and (batch["labels"][pad] == IGNORE).all()
    assert batch["pixel_values"].shape[0] == int(batch["image_grid_thw"].prod(dim=1).sum())


@pytest.mark.slow
def test_sft_on_teacher_trajectories_learns_reloads_resumes_and_records(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch
):
    from flows.rollout import rollout_flow
    from infra.settings import get_settings
    from tasks.models import RolloutParams
    from warehouse.query import run_query

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    bundles = [str(export_bundle(families, "calc.padded_ids", seed, tmp_path / "final")) for seed in (1, 2)]
    summary = rollout_flow(RolloutParams(bundles=bundles, k=1, workers=2, out=str(tmp_path / "dataset")))
    assert summary.solved == 2, summary.outcomes

    config = load_config(
        None,
        {
            "kind": "sft",
            "model": str(save_tiny_policy(tmp_path / "base")),
            "datasets": [str(tmp_path / "dataset")],
            "family": FAMILY,
            "output_dir": str(tmp_path / "sft"),
            # a randomly initialised 400K-parameter model needs big steps to move in a dozen
            "learning_rate": 3e-3,
            "min_learning_rate": 3e-4,
            "epochs": 5,
            "save_steps": 2,
        },
    )
    warehouse = isolated_settings.warehouse_path
    result = run_sft(config, warehouse=warehouse)
    assert result.samples == 2 and result.dropped == 0 and result.steps == 10
    assert len(result.losses) == result.steps and result.last_loss < result.first_loss - 0.5, result.losses

    # the saved checkpoint is the trained policy: same logits on a batch
    reloaded = Qwen2VLForConditionalGeneration.from_pretrained(config.output_dir).eval()
    processor = load_processor(config.output_dir)
    samples = list(sft_samples(config.datasets, FAMILY))
    features = [encode_sample(processor, s) for s in samples]
    batch = collate(features, processor.tokenizer.pad_token_id)
    with torch.no_grad():
        expected = result.model.eval()(**batch).logits
        assert torch.equal(reloaded(**batch).logits, expected)
    for sample, encoded in zip(samples, features, strict=True):
        assert label_runs(encoded["labels"], processor.tokenizer) == trained_replies(sample)

    rows = run_query(warehouse, f"SELECT step, loss, tokens, trained_tokens, seconds, learning_rate "
                                f"FROM training_curves WHERE run_id = '{result.run_id}' ORDER BY step").rows  # fmt: skip
    assert [r[0] for r in rows] == list(range(1, 11))
    assert [r[1] for r in rows] == pytest.approx(result.losses)
    assert all(r[2] > r[3] > 0 and r[4] > 0 for r in rows)  # trained tokens are a part of the input
    assert rows[0][5] == pytest.approx(3e-3) and rows[-1][5] < rows[0][5]  # the cosine decays

    # killed after step 4: the re-run resumes from checkpoint-4 and ends where the first run did
    for late in (6, 8, 10):
        shutil.rmtree(config.output_dir / f"checkpoint-{late}")
    again = run_sft(config, warehouse=warehouse)
    assert again.resumed_from == 4 and again.steps == 10 and len(again.losses) == 6
    assert again.losses == pytest.approx(result.losses[4:], abs=1e-4)
    (run,) = run_query(warehouse, f"SELECT status, resumed_from, samples FROM training_runs "
                                  f"WHERE run_id = '{result.run_id}'").rows  # fmt: skip
    assert run == ("done", 4, 2)
    assert run_query(warehouse, "SELECT count(*) FROM training_steps").rows == [(10,)]
