"""SFT slices kept on disk and encoded per item (training/sft_data.py): what the Trainer reads is
exactly what encoding the slices up front gave, the drop count is known before training, a complete
cache is reused without reading the trajectories again, and a changed dataset builds a new one."""

from __future__ import annotations

import pytest
import torch

from infra.trajectories import Screenshots, read_trajectories
from training import sft_data
from training.collate import encode_sample
from training.config import SFTConfig
from training.data import trajectory_samples
from training.sft import encode_samples
from training.tiny import tiny_processor

from .test_data import write_dataset

FAMILY = "qwen2.5-vl"


def config(tmp_path, **overrides) -> SFTConfig:
    fields = dict(
        model="tiny:qwen2-vl", family=FAMILY, datasets=[tmp_path / "ds"], output_dir=tmp_path / "out"
    )
    return SFTConfig(**(fields | overrides))


def test_the_trainer_reads_exactly_the_slices_encoding_up_front_gave(tmp_path):
    write_dataset(tmp_path / "ds", n_steps=32)  # 32 turns: three slices
    processor = tiny_processor()
    dataset, dropped = encode_samples(config(tmp_path), processor)
    (trajectory,) = read_trajectories(tmp_path / "ds")
    shots = Screenshots(tmp_path / "ds")
    try:
        up_front = [encode_sample(processor, s) for s in trajectory_samples(trajectory, shots, FAMILY)]
    finally:
        shots.close()
    assert (len(dataset), dropped) == (len(up_front), 0) == (3, 0)
    for index, want in enumerate(up_front):
        got = dataset[index]
        assert got.keys() == want.keys()
        for key in want:
            assert torch.equal(got[key], want[key]), key  # screenshots round-trip losslessly
    with pytest.raises(IndexError):
        dataset[3]


def test_slices_over_max_length_are_dropped_and_counted_before_training(tmp_path):
    write_dataset(tmp_path / "ds", n_steps=32)
    processor = tiny_processor()
    full, _ = encode_samples(config(tmp_path), processor)
    lengths = sorted(len(full[i]["input_ids"]) for i in range(len(full)))
    assert lengths[0] < lengths[-1] and lengths[-1] >= 256  # some slice is longer than the next limit
    limit = max(256, lengths[0])
    kept, dropped = encode_samples(config(tmp_path, max_length=limit), processor)
    assert (len(kept), dropped) == (sum(n <= limit for n in lengths), sum(n > limit for n in lengths))
    assert dropped >= 1 and all(len(kept[i]["input_ids"]) <= limit for i in range(len(kept)))


def test_a_complete_cache_is_reused_and_a_changed_dataset_builds_a_new_one(tmp_path, monkeypatch):
    write_dataset(tmp_path / "ds", n_steps=12)
    processor = tiny_processor()
    first, _ = encode_samples(config(tmp_path), processor)

    def no_reading(*args, **kwargs):
        raise AssertionError("the trajectories were read again")

    monkeypatch.setattr(sft_data, "sft_samples", no_reading)
    again, _ = encode_samples(config(tmp_path), processor)
    assert again.folder == first.folder and len(again) == len(first) == 1
    monkeypatch.undo()
    write_dataset(tmp_path / "ds", n_steps=32, rid="calc.rename-0002__r0")  # a new rollout appended
    grown, _ = encode_samples(config(tmp_path), processor)
    assert grown.folder != first.folder and len(grown) == 1 + 3
    # a slice set killed half-written never counts as a cache: only folders with a manifest are reused
    assert all((f / sft_data.MANIFEST).is_file() for f in grown.folder.parent.iterdir())
