"""One forward pass per slice of an episode instead of one per reply (GSPO's update cost).

Turn k+1 of an episode is sampled from a prompt that is turn k's prompt, its sampled reply and the
next user turn — until the collapse rule folds old screenshots into text, which starts a new slice.
Scoring every reply on its own re-encodes that shared context (up to 20 screenshots) once per reply.
Here:

- `PromptBuilder` (the transformers engine's prompts, training/local_policy.py) builds turn k+1's
  prompt token by token: turn k's prompt + the *sampled* reply ids + the encoding of only what the
  chat template adds after the reply (the user turn, its screenshot, the generation prompt). The
  prompts of a slice then extend each other exactly, and each reply is scored in precisely the
  context it was sampled in. Where the rendered conversation does not extend the previous one (a
  collapse), the whole prompt is encoded afresh.
- `chains(turns)` groups consecutive turns whose prompts extend (token ids, image grids and pixels
  all prefixes) — any engine's turns, so vLLM's re-encoded prompts share a pass when they happen to
  extend, and never when they do not.
- `chain_logps(model, turns, temperature)` runs the last turn's prompt + reply once and reads every
  reply's log-probs at its own positions (`logits_to_keep` with their indices, so the lm_head runs
  only where a reply token is predicted). Causal attention makes each position's logits those of the
  shorter sequence (tests/training/test_shared_context.py checks them against one pass per reply).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from training.losses import sampled_logps

END = "<|im_end|>"
INPUT_KEYS = ("input_ids", "attention_mask", "pixel_values", "image_grid_thw", "mm_token_type_ids")


class PromptBuilder:
    """Turn prompts of one episode, each extending the previous prompt + its sampled reply."""

    def __init__(self, processor: Any, encode_full) -> None:
        self.processor, self._encode_full = processor, encode_full
        self.reset()

    def reset(self) -> None:
        self._text = ""  # the rendered conversation the last prompt + its reply stand for
        self._ids: dict[str, torch.Tensor] | None = None  # that prompt + its reply, as model inputs

    def prompt(self, messages: list[dict[str, Any]], images: list[Any]) -> dict[str, torch.Tensor]:
        """Model inputs for `messages` with the generation prompt; `images` are those of the newest
        user turn (the only ones an extension has to encode)."""
        text = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        if self._ids is not None and text.startswith(self._text):
            enc = self.processor(text=[text[len(self._text) :]], images=images or None, return_tensors="pt")
            prompt = extend(self._ids, {k: enc[k] for k in INPUT_KEYS if k in enc})
        else:  # the first turn, or a collapse rewrote the conversation: a new slice
            prompt = self._encode_full(self.processor, messages)
        self._text, self._ids = text, None
        return prompt

    def replied(self, prompt: dict[str, torch.Tensor], completion: torch.Tensor, reply_text: str) -> None:
        """The reply sampled from `prompt`: the next prompt extends both, token for token."""
        end_id = self.processor.tokenizer.convert_tokens_to_ids(END)
        ended = bool(len(completion)) and int(completion[-1]) == end_id
        # the template renders the reply as its text + END; a reply that sampled END already holds it
        self._text += reply_text + (END if ended else "")
        self._ids = extend(prompt, {"input_ids": completion[None]})


def extend(base: dict[str, torch.Tensor], more: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """`base` model inputs followed by `more` (text tokens, and any images `more` brings)."""
    n = more["input_ids"].shape[1]
    out = dict(base)
    out["input_ids"] = torch.cat([base["input_ids"], more["input_ids"]], dim=1)
    out["attention_mask"] = torch.ones_like(out["input_ids"])
    if "mm_token_type_ids" in base:
        extra = more.get("mm_token_type_ids", torch.zeros(1, n, dtype=base["mm_token_type_ids"].dtype))
        out["mm_token_type_ids"] = torch.cat([base["mm_token_type_ids"], extra], dim=1)
    for key in ("pixel_values", "image_grid_thw"):
        if key in more:
            out[key] = torch.cat([base[key], more[key]], dim=0) if key in base else more[key]
    return out


def _extends(short: Any, long: Any) -> bool:
    """Does `long`'s prompt start with `short`'s prompt + reply (ids, grids and pixels)?"""
    ids = torch.cat([short.prompt["input_ids"][0], short.completion_ids])
    if long.prompt["input_ids"].shape[1] < len(ids) or not torch.equal(
        long.prompt["input_ids"][0, : len(ids)], ids
    ):
        return False
    for key in ("image_grid_thw", "pixel_values"):
        a, b = short.prompt.get(key), long.prompt.get(key)
        if a is None:
            continue
        if b is None or b.shape[0] < a.shape[0] or not torch.equal(b[: a.shape[0]], a):
            return False
    return True


def chains(turns: Sequence[Any]) -> list[list[int]]:
    """Indices of `turns` in runs whose prompts extend one another (each run: one forward pass)."""
    runs: list[list[int]] = []
    for i, turn in enumerate(turns):
        if runs and _extends(turns[runs[-1][-1]], turn):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def chain_logps(model: Any, turns: Sequence[Any], temperature: float) -> list[torch.Tensor]:
    """Per turn of one chain, the log-probs (T,) of its reply under `model` (one forward pass)."""
    last = turns[-1]
    device = next(model.parameters()).device
    inputs = extend(last.prompt, {"input_ids": last.completion_ids[None]})
    inputs = {k: v.to(device) for k, v in inputs.items()}
    spans, positions = [], []
    for turn in turns:
        start, length = turn.prompt_tokens, len(turn.completion_ids)
        spans.append((len(positions), length))
        positions.extend(range(start - 1, start + length - 1))  # position t predicts token t + 1
    if not positions:
        return [torch.zeros(0) for _ in turns]
    keep = torch.tensor(positions, device=device)
    logits = model(**inputs, use_cache=False, logits_to_keep=keep).logits[0]
    ids = inputs["input_ids"][0, keep + 1]
    logps = sampled_logps(logits, ids, temperature).cpu()
    return [logps[offset : offset + length] for offset, length in spans]
