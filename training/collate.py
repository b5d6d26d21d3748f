"""Chat samples as model inputs: token ids, the assistant-only label mask, and pixel inputs.

`encode_sample` renders a `ChatSample` with the processor's chat template, lets the processor expand
each screenshot into its image tokens, and builds `labels`: -100 everywhere except the tokens of the
assistant messages whose `train` flag is set — their reply and the closing `<|im_end|>` (so the model
learns to end its turn), never the `<|im_start|>assistant\\n` header, the system prompt, a user turn
(instruction, screenshot tokens, tool-response wrapper) or an earlier slice's assistant turns.

Why not TRL's masking: `SFTTrainer`'s `assistant_only_loss` trains *every* assistant turn (and needs
`{% generation %}` markers in the template); a slice must train only its new turns (appendix C.1.2),
so the mask is built here from the per-message flags and the trainer takes the ready labels.

The assistant turns are found in the token stream by their header `<|im_start|>assistant\\n`; the
k-th header is the k-th assistant message. That holds for every Qwen chat template (role headers are
rendered verbatim and `<|im_start|>` is a special token no text can produce).

Example:
    >>> model, processor = tiny_policy()
    >>> features = encode_sample(processor, sample)              # doctest: +SKIP
    >>> batch = collate([features], processor.tokenizer.pad_token_id)  # doctest: +SKIP
    >>> model(**batch).loss                                    # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from infra.errors import ConfigError
from training.data import ChatSample

IGNORE = -100  # the label torch's cross-entropy skips
MODEL_INPUTS = (
    "input_ids",
    "attention_mask",
    "labels",
    "pixel_values",
    "image_grid_thw",
    "mm_token_type_ids",
)


def sample_images(sample: ChatSample) -> list[Any]:
    """The sample's images in the order the template renders them."""
    return [
        part["image"]
        for message in sample.messages
        if isinstance(message["content"], list)
        for part in message["content"]
        if part.get("type") == "image"
    ]


def assistant_spans(input_ids: Sequence[int], header: Sequence[int], end_id: int) -> list[range]:
    """Per assistant turn, the token positions of its reply through its end token (inclusive)."""
    ids, n, spans = list(input_ids), len(header), []
    i = 0
    while i <= len(ids) - n:
        if ids[i : i + n] == list(header):
            start = i + n
            stop = ids.index(end_id, start) + 1 if end_id in ids[start:] else len(ids)
            spans.append(range(start, stop))
            i = stop
        else:
            i += 1
    return spans


def label_mask(input_ids: torch.Tensor, sample: ChatSample, processor: Any) -> torch.Tensor:
    """`labels` for one encoded sample (1-D `input_ids`): ids on trained assistant turns, else -100."""
    tokenizer = processor.tokenizer
    header = tokenizer.encode("<|im_start|>assistant\n", add_special_tokens=False)
    end_id = tokenizer.convert_tokens_to_ids("<|im_end|>")
    flags = [t for m, t in zip(sample.messages, sample.train, strict=True) if m["role"] == "assistant"]
    spans = assistant_spans(input_ids.tolist(), header, end_id)
    if len(spans) != len(flags):
        raise ConfigError(
            f"sample {sample.trajectory_id}#{sample.slice_index}: {len(flags)} assistant messages but "
            f"{len(spans)} assistant headers in its tokens",
            hint="the processor's chat template must render roles as <|im_start|>assistant\\n (Qwen's)",
        )
    labels = torch.full_like(input_ids, IGNORE)
    for span, trained in zip(spans, flags, strict=True):
        if trained:
            labels[span.start : span.stop] = input_ids[span.start : span.stop]
    return labels


def encode_sample(processor: Any, sample: ChatSample) -> dict[str, torch.Tensor]:
    """One sample as unbatched model inputs: 1-D `input_ids`/`attention_mask`/`labels` (T,),
    `pixel_values` (patches, C·t·p·p) and `image_grid_thw` (images, 3) when it shows screenshots."""
    text = processor.apply_chat_template(sample.messages, tokenize=False)
    images = sample_images(sample)
    enc = processor(text=[text], images=images or None, return_tensors="pt")
    features = {k: v[0] for k, v in enc.items() if k in ("input_ids", "attention_mask", "mm_token_type_ids")}
    features["labels"] = label_mask(features["input_ids"], sample, processor)
    if images:
        features["pixel_values"] = enc["pixel_values"]
        features["image_grid_thw"] = enc["image_grid_thw"]
    return features


def collate(features: list[dict[str, torch.Tensor]], pad_id: int) -> dict[str, torch.Tensor]:
    """Right-pad a list of `encode_sample` outputs into a batch (B, T); pixel inputs concatenated."""
    width = max(len(f["input_ids"]) for f in features)

    def pad(key: str, value: int) -> torch.Tensor:
        rows = [torch.nn.functional.pad(f[key], (0, width - len(f[key])), value=value) for f in features]
        return torch.stack(rows)

    batch = {"input_ids": pad("input_ids", pad_id), "attention_mask": pad("attention_mask", 0)}
    batch["labels"] = pad("labels", IGNORE)
    if all("mm_token_type_ids" in f for f in features):
        batch["mm_token_type_ids"] = pad("mm_token_type_ids", 0)
    shown = [f for f in features if "pixel_values" in f]
    if shown:
        batch["pixel_values"] = torch.cat([f["pixel_values"] for f in shown])
        batch["image_grid_thw"] = torch.cat([f["image_grid_thw"] for f in shown])
    return batch


@dataclass
class SFTCollator:
    """ChatSample list -> a training batch (encode + collate); see the module docstring."""

    processor: Any

    def __call__(self, samples: list[ChatSample]) -> dict[str, torch.Tensor]:
        return collate(
            [encode_sample(self.processor, s) for s in samples], self.processor.tokenizer.pad_token_id
        )
