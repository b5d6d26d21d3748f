"""LoRA through peft and gradient checkpointing (training/adapters.py) on the tiny Qwen2-VL, CPU-sized:
SFT with both trains only the adapters and leaves a folder that reloads as a plain model with the
trained behaviour; a GSPO update with LoRA moves only the adapters, and a resumed run gets them back."""

from __future__ import annotations

import pytest
import torch
from transformers import Qwen2VLForConditionalGeneration

from training.adapters import ADAPTER_DIR, is_adapted, prepare_model, save_model
from training.checkpoint import find_checkpoint
from training.config import load_config
from training.gspo import GSPOUpdate, _load_model
from training.sft import load_policy, run_sft
from training.tiny import tiny_policy

from .test_data import write_dataset
from .test_gspo import _config, _rollout

LORA = {"lora_rank": 4, "lora_alpha": 8, "lora_dropout": 0.0, "gradient_checkpointing": True}


def _logits(model, processor) -> torch.Tensor:
    ids = processor.tokenizer("Open the Format menu.", return_tensors="pt")
    with torch.no_grad():
        return model(input_ids=ids["input_ids"], attention_mask=ids["attention_mask"]).logits


def test_sft_with_lora_and_checkpointing_trains_only_adapters_and_saves_a_plain_model(tmp_path):
    write_dataset(tmp_path / "ds", n_steps=12)
    base, processor = tiny_policy(0)
    config = load_config(
        None,
        {"model": "tiny:qwen2-vl", "family": "qwen2.5-vl", "datasets": [str(tmp_path / "ds")],
         "output_dir": str(tmp_path / "out"), "epochs": 4, "learning_rate": 3e-2, "save_steps": 2} | LORA,
        kind="sft",
    )  # fmt: skip
    result = run_sft(config)
    assert is_adapted(result.model) and result.model.get_base_model().is_activation_checkpointing
    assert result.steps == 4 and all(torch.isfinite(torch.tensor(loss)) for loss in result.losses)
    trainable = {n for n, p in result.model.named_parameters() if p.requires_grad}
    assert trainable and all(".lora_" in n for n in trainable)  # the base and the vision tower are frozen
    reloaded = Qwen2VLForConditionalGeneration.from_pretrained(tmp_path / "out")
    assert not any("lora" in k for k in reloaded.state_dict())  # a plain checkpoint, adapters merged
    # it behaves as the trained adapted model does, and not as the untrained base did
    torch.testing.assert_close(_logits(reloaded, processor), _logits(result.model.eval(), processor))
    assert not torch.allclose(_logits(reloaded, processor), _logits(base, processor))
    vision = [k for k in base.state_dict() if ".visual." in f".{k}"]
    assert vision and all(torch.equal(reloaded.state_dict()[k], base.state_dict()[k]) for k in vision)
    assert (tmp_path / "out" / ADAPTER_DIR / "adapter_model.safetensors").is_file()


@pytest.fixture
def lora_rollouts():
    torch.manual_seed(0)
    model, processor = tiny_policy()
    model = prepare_model(
        model, load_config(None, {"model": "tiny:qwen2-vl", "tuples": ["x"]} | LORA, kind="gspo")
    )
    model.eval()
    from training.local_policy import LocalPolicy

    policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=1.0, max_tokens=24)
    rollouts = [_rollout(policy, "t", k, r) for k, r in enumerate([1.0, 0.0, 0.0, 1.0])]
    return model, processor, rollouts


def test_a_gspo_update_with_lora_moves_only_the_adapters_and_a_resume_gets_them_back(tmp_path, lora_rollouts):
    model, processor, rollouts = lora_rollouts
    config = _config(output_dir=str(tmp_path / "gspo"), **LORA)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    updater = GSPOUpdate(config, model, processor)
    assert {id(p) for g in updater.optimizer.param_groups for p in g["params"]} == {
        id(p) for n, p in model.named_parameters() if ".lora_" in n
    }
    stats = updater.update([rollouts], iteration=1)
    assert stats.trained_samples == stats.samples and stats.grad_norm and stats.grad_norm > 0
    changed = {n for n, p in model.named_parameters() if not torch.equal(p, before[n])}
    assert changed and all(".lora_B" in n or ".lora_A" in n for n in changed)
    updater.checkpoint(tmp_path / "gspo" / "checkpoint-2", iteration=1)
    resumed, _ = _load_model(config, find_checkpoint(tmp_path / "gspo"), load_policy)
    for name, param in model.named_parameters():
        if ".lora_" in name:
            torch.testing.assert_close(dict(resumed.named_parameters())[name], param)
    plain = Qwen2VLForConditionalGeneration.from_pretrained(tmp_path / "gspo" / "checkpoint-2")
    torch.testing.assert_close(_logits(plain, processor), _logits(model.eval(), processor))
    save_model(model, tmp_path / "again")  # saving leaves the adapters unmerged: training can go on
    assert all(torch.equal(p, dict(model.named_parameters())[n]) for n, p in resumed.named_parameters()
               if ".lora_" in n)  # fmt: skip
