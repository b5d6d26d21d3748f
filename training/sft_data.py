"""SFT slices kept on disk and encoded per batch, so memory stays flat however large the dataset.

Encoding every slice up front held every slice's `pixel_values` in RAM (about 0.46 GB per 20-frame
slice at the stock pixel budget): a few thousand trajectories could not be trained. Here:

- `build_slice_cache` walks the successful trajectories once (training/data.py `sft_samples`),
  encodes each slice only to check it (at most `max_length` tokens, at least one trained token),
  and writes the kept ones to `<output_dir>/sft-cache/<key>/NNNNNN.json` — the messages, with their
  screenshots as lossless PNG, and the train flags — then lets it go. The drop count is known before
  step 1, as it was.
- `SliceDataset` reads one slice per item and encodes it then (training/collate.py `encode_sample`),
  so only the batch being trained holds pixel inputs.
- The key covers what the slices depend on: the datasets (their trajectories file's size and time),
  the slicing settings, `max_length`, and the processor (its geometry, vocabulary and chat template).
  A manifest written last marks a complete cache; a re-run with the same key reuses it (a resumed
  run does not read the trajectories again), a changed input builds a new one.

Why not `datasets.Dataset.from_generator`: it stores images through its own Image feature and
Arrow files; a JSON file per slice keeps the format plain and the images exactly as the model saw
them, which is all the Trainer needs.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import logging
import shutil
import uuid
from pathlib import Path
from typing import Any

import torch
from PIL import Image

from infra.computer_use.coords import Geometry
from training.collate import IGNORE, encode_sample
from training.config import SFTConfig
from training.data import ChatSample, sft_samples, trainable_family

log = logging.getLogger(__name__)

CACHE_DIR = "sft-cache"
MANIFEST = "manifest.json"


class SliceDataset(torch.utils.data.Dataset):
    """The kept slices of a cache, each encoded when the Trainer asks for it."""

    def __init__(self, folder: Path, processor: Any, count: int) -> None:
        self.folder, self.processor, self.count = folder, processor, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> dict[str, torch.Tensor]:
        if not 0 <= index < self.count:
            raise IndexError(index)
        return encode_sample(self.processor, read_slice(self.folder / f"{index:06d}.json"))


def cache_key(config: SFTConfig, processor: Any) -> str:
    """A hash of everything the kept slices depend on (see the module docstring)."""
    fam = trainable_family(config.family)
    tokenizer = processor.tokenizer
    parts = {
        "datasets": [_dataset_stamp(Path(d)) for d in config.datasets],
        "family": config.family,
        "interval": config.traj_slice_interval,
        "max_screenshots": config.max_screenshots,
        "max_calls": config.max_calls_per_turn,
        "max_length": config.max_length,
        "geometry": Geometry.from_processor(processor, fam.space).model_dump(mode="json"),
        "vocab": len(tokenizer),
        "template": hashlib.sha256(str(getattr(processor, "chat_template", "")).encode()).hexdigest(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def build_slice_cache(config: SFTConfig, processor: Any) -> tuple[SliceDataset, int]:
    """(the kept slices as a dataset, how many were dropped): reused when the cache is complete."""
    root = Path(config.output_dir) / CACHE_DIR
    key = cache_key(config, processor)
    folder = root / key
    manifest = folder / MANIFEST
    if manifest.is_file():
        meta = json.loads(manifest.read_text())
        log.info("sft slices: %d kept, %d dropped (cache %s)", meta["kept"], meta["dropped"], key)
        return SliceDataset(folder, processor, meta["kept"]), meta["dropped"]
    partial = root / f".{key}-{uuid.uuid4().hex[:8]}"
    partial.mkdir(parents=True)
    try:
        kept, dropped = _write_slices(config, processor, partial)
        (partial / MANIFEST).write_text(json.dumps({"key": key, "kept": kept, "dropped": dropped}))
        shutil.rmtree(folder, ignore_errors=True)  # an incomplete one from a killed run
        partial.rename(folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    log.info("sft slices: kept=%d dropped=%d (cache %s)", kept, dropped, key)
    return SliceDataset(folder, processor, kept), dropped


def _write_slices(config: SFTConfig, processor: Any, folder: Path) -> tuple[int, int]:
    geometry = Geometry.from_processor(processor, trainable_family(config.family).space)
    kept = dropped = 0
    for sample in sft_samples(
        list(config.datasets),
        config.family,
        interval=config.traj_slice_interval,
        max_screenshots=config.max_screenshots,
        max_calls=config.max_calls_per_turn,
        geometry=geometry,
    ):
        encoded = encode_sample(processor, sample)  # checked, then let go: memory stays one slice
        if len(encoded["input_ids"]) > config.max_length or not (encoded["labels"] != IGNORE).any():
            dropped += 1
            continue
        write_slice(folder / f"{kept:06d}.json", sample)
        kept += 1
    return kept, dropped


def write_slice(path: Path, sample: ChatSample) -> None:
    record = {
        "messages": [_message_out(m) for m in sample.messages],
        "train": sample.train,
        "advantage": sample.advantage,
        "trajectory_id": sample.trajectory_id,
        "slice_index": sample.slice_index,
        "turns": [sample.turns.start, sample.turns.stop],
        "meta": sample.meta,
    }
    path.write_text(json.dumps(record))


def read_slice(path: Path) -> ChatSample:
    record = json.loads(path.read_text())
    return ChatSample(
        messages=[_message_in(m) for m in record["messages"]],
        train=record["train"],
        advantage=record["advantage"],
        trajectory_id=record["trajectory_id"],
        slice_index=record["slice_index"],
        turns=range(*record["turns"]),
        meta=record["meta"],
    )


def _message_out(message: dict[str, Any]) -> dict[str, Any]:
    content = message["content"]
    if not isinstance(content, list):
        return message
    return message | {"content": [_part_out(p) for p in content]}


def _part_out(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") != "image":
        return part
    out = io.BytesIO()
    part["image"].save(out, format="PNG")
    return {"type": "image", "png": base64.b64encode(out.getvalue()).decode("ascii")}


def _message_in(message: dict[str, Any]) -> dict[str, Any]:
    content = message["content"]
    if not isinstance(content, list):
        return message
    return message | {"content": [_part_in(p) for p in content]}


def _part_in(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") != "image":
        return part
    with Image.open(io.BytesIO(base64.b64decode(part["png"]))) as image:
        return {"type": "image", "image": image.convert("RGB")}


def _dataset_stamp(out: Path) -> list:
    jsonl = out / "trajectories.jsonl"
    st = jsonl.stat() if jsonl.exists() else None
    return [str(out.resolve()), st.st_size if st else None, st.st_mtime_ns if st else None]
