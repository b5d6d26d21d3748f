"""A tiny Qwen2-VL policy built from a config, for CPU tests and the CPU training path.

No weights or tokenizers can be downloaded here, so `tiny_policy()` builds both locally:

- a byte-level BPE tokenizer trained (with the `tokenizers` library) on local text — the source of
  infra/computer_use, which holds the system prompt, the tool schema and the call grammar (so the
  tokenizer changes when those files do; a saved tiny policy carries its own) —
  with Qwen's chat special tokens (`<|im_start|>`, `<|im_end|>`, `<|vision_start|>`, `<|image_pad|>`,
  `<|vision_end|>`, …) and Qwen2-VL's chat template, so a sample renders exactly as it would for a
  real Qwen2-VL / Qwen2.5-VL processor;
- a `Qwen2VLForConditionalGeneration` with a 2-layer, 64-wide language model and a 2-block vision
  tower, randomly initialised from `seed`;
- a processor whose image side resizes every screenshot to at most `max_pixels` (default 112x112,
  i.e. ~16 merged image tokens per screenshot), so a CPU step takes well under a second.

`save_tiny_policy(path)` writes both with `save_pretrained`, so everything downstream loads the tiny
policy exactly as it would load a real checkpoint (`from_pretrained(path)`).

Example:
    >>> model, processor = tiny_policy()
    >>> model.config.text_config.hidden_size
    64
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    PreTrainedTokenizerFast,
    Qwen2VLConfig,
    Qwen2VLForConditionalGeneration,
    Qwen2VLImageProcessorPil,
    Qwen2VLProcessor,
)

log = logging.getLogger(__name__)

TINY_MODEL = "tiny:qwen2-vl"  # the `model` value that builds this policy instead of loading one
PATCH = 14
MERGE = 2
MAX_PIXELS = 112 * 112
MIN_PIXELS = 56 * 56
VOCAB = 2048
SPECIAL_TOKENS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
TOOL_TOKENS = ["<tool_call>", "</tool_call>"]
# Qwen's pre-tokenizer split: contractions, words, single digits, punctuation runs, newline runs.
QWEN_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Qwen2-VL's chat template (images as <|vision_start|><|image_pad|><|vision_end|>), without the
# video branch, which training never sends.
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}"
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}"
    "{% endfor %}<|im_end|>\n{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def _corpus() -> Iterator[str]:
    """Local text the tokenizer learns from: prompt templates and the code that writes tool calls."""
    root = Path(__file__).resolve().parents[1]
    for pattern in ("infra/computer_use/**/*",):
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path.suffix in {".py", ".md", ".j2", ".txt", ".jinja", ".yaml", ".json"}:
                yield path.read_text(encoding="utf-8", errors="replace")
    yield "<|im_start|>system\n<|im_end|>\n<|im_start|>user\n<|im_end|>\n<|im_start|>assistant\n" * 50


@lru_cache(maxsize=1)
def _trained_tokenizer_json() -> str:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(QWEN_SPLIT, behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(_corpus(), trainer=trainer)
    return tok.to_str()


def tiny_tokenizer() -> PreTrainedTokenizerFast:
    """A Qwen-style tokenizer trained on local text (cached: training takes about a second)."""
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(_trained_tokenizer_json()),
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:],
        model_max_length=1 << 20,
    )
    tokenizer.add_tokens(TOOL_TOKENS)  # as in Qwen2.5's tokenizer: added, but not special
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


class ImageQwen2VLProcessor(Qwen2VLProcessor):
    """Qwen2VLProcessor without its video half.

    transformers' Qwen2-VL video processor needs torchvision, which this project does not install
    (training sends no video), and `Qwen2VLProcessor` refuses to be built without one; the
    processor's sub-processors are the arguments of `__init__`, so leaving `video_processor` out
    of the signature is what drops it. Saved and reloaded with this class's `from_pretrained`.
    """

    def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs):
        super().__init__(image_processor, tokenizer, None, chat_template=chat_template, **kwargs)


def tiny_processor(*, max_pixels: int = MAX_PIXELS, min_pixels: int = MIN_PIXELS) -> ImageQwen2VLProcessor:
    images = Qwen2VLImageProcessorPil(
        size={"shortest_edge": min_pixels, "longest_edge": max_pixels}, patch_size=PATCH, merge_size=MERGE
    )
    return ImageQwen2VLProcessor(
        image_processor=images, tokenizer=tiny_tokenizer(), chat_template=CHAT_TEMPLATE
    )


def tiny_config(tokenizer: PreTrainedTokenizerFast) -> Qwen2VLConfig:
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    head_dim = 16  # hidden 64 / 4 heads; mrope splits head_dim / 2 = 8 rotary pairs over (t, h, w)
    return Qwen2VLConfig(
        text_config={
            "vocab_size": len(tokenizer),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": 4096,
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            "bos_token_id": ids["<|endoftext|>"],
            "eos_token_id": ids["<|im_end|>"],
            "pad_token_id": ids["<|endoftext|>"],
        },
        vision_config={
            "depth": 2,
            "embed_dim": 32,
            "hidden_size": 64,  # the merger's output: the language model's width
            "num_heads": 2,
            "mlp_ratio": 2,
            "patch_size": PATCH,
            "spatial_merge_size": MERGE,
            "temporal_patch_size": 2,
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        eos_token_id=ids["<|im_end|>"],
        pad_token_id=ids["<|endoftext|>"],
        head_dim=head_dim,
    )


def tiny_policy(seed: int = 0) -> tuple[Qwen2VLForConditionalGeneration, ImageQwen2VLProcessor]:
    """A freshly initialised tiny Qwen2-VL and its processor (same `seed`, same weights)."""
    processor = tiny_processor()
    torch.manual_seed(seed)
    model = Qwen2VLForConditionalGeneration(tiny_config(processor.tokenizer))
    log.debug("tiny policy: %d parameters", sum(p.numel() for p in model.parameters()))
    return model, processor


def save_tiny_policy(path: Path, seed: int = 0) -> Path:
    """Write a tiny policy with `save_pretrained` (model + processor) and return `path`."""
    model, processor = tiny_policy(seed)
    model.save_pretrained(path)
    processor.save_pretrained(path)
    return path
