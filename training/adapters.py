"""What users of 7B+ models switch on: LoRA adapters through peft and gradient checkpointing, for
SFT and GSPO alike, with checkpoints that still reload as plain models.

- `prepare_model(model, config)`: gradient checkpointing (non-reentrant, so frozen inputs need no
  `requires_grad` trick) and, when `lora_rank > 0`, a peft `LoraConfig` on the language model's
  projections (`lora_targets`; the vision tower's fused `qkv`/`proj` are left frozen). Only the
  adapter weights then train; the optimizer sees only them.
- `save_model(model, path)`: a folder `from_pretrained` reloads as an ordinary model — the
  adapters merged into the weights — plus, for an adapted model, the adapters themselves under
  `path/adapter/` so a resumed run goes on with the same adapter weights and AdamW state. The merge
  happens in place and is undone afterwards (no second copy of a 7B model in memory).
- `load_adapter_weights(model, path)`: the adapters saved by `save_model` back into a prepared model.

Example:
    >>> model, _ = tiny_policy()                                   # doctest: +SKIP
    >>> model = prepare_model(model, config)                       # config.lora_rank = 8
    >>> sum(p.numel() for p in model.parameters() if p.requires_grad) < 10_000  # doctest: +SKIP
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ADAPTER_DIR = "adapter"


def is_adapted(model: Any) -> bool:
    return hasattr(model, "peft_config")


def prepare_model(model: Any, config: Any) -> Any:
    """`model` with gradient checkpointing and LoRA as `config` asks (a no-op for neither)."""
    if config.gradient_checkpointing:
        model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
        model.config.use_cache = False  # a cache is useless when activations are recomputed
    if not config.lora_rank:
        return model
    from peft import LoraConfig, get_peft_model

    lora = LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.lora_targets),
        bias="none",
    )
    return get_peft_model(model, lora)


def save_model(model: Any, path: Path) -> None:
    """A plain, reloadable checkpoint of `model` in `path` (see the module docstring)."""
    if not is_adapted(model):
        model.save_pretrained(path)
        return
    model.save_pretrained(path / ADAPTER_DIR)  # peft writes the adapters and their config only
    model.merge_adapter()
    try:
        base = model.get_base_model()
        merged = {
            key.replace(".base_layer.", "."): value
            for key, value in base.state_dict().items()
            if ".lora_" not in key
        }
        base.save_pretrained(path, state_dict=merged)
    finally:
        model.unmerge_adapter()


def load_adapter_weights(model: Any, path: Path) -> None:
    """The adapter weights `save_model` wrote to `path/adapter/`, into the prepared `model`."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    weights = load_file(str(path / ADAPTER_DIR / "adapter_model.safetensors"))
    result = set_peft_model_state_dict(model, weights)
    if getattr(result, "unexpected_keys", None):
        raise ValueError(f"adapter weights in {path} do not fit the model: {result.unexpected_keys[:3]}")
