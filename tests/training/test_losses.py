"""`training/losses.py` against TRL 1.16's own GRPOTrainer loss on the same tensors (DESIGN.md §3.5b).

TRL's `_compute_loss` starts with a model forward (`_get_per_token_logps_and_entropies`); that one
method is replaced on a real trainer, built from a real GRPOConfig, so that it returns our leaf
`logps`. Everything after it — ratios, clipping, reductions, the accumulation normaliser — is TRL's
code. Loss and d loss / d logps are then compared with `gspo_loss`.
"""

from __future__ import annotations

import math

import pytest
import torch

from training.losses import clip_fractions, group_advantages, gspo_loss, zero_variance_groups

B, T = 6, 9


def _tiny_trainer(tmp_path, level: str):
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    from trl import GRPOConfig, GRPOTrainer

    vocab = {"<pad>": 0, "<eos>": 1, **{f"w{i}": i + 2 for i in range(30)}}
    raw = Tokenizer(models.WordLevel(vocab, unk_token="<pad>"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="<pad>", eos_token="<eos>")
    model = LlamaForCausalLM(LlamaConfig(vocab_size=len(vocab), hidden_size=16, intermediate_size=32,
                                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2))  # fmt: skip
    args = GRPOConfig(
        output_dir=str(tmp_path),
        importance_sampling_level=level,
        loss_type="grpo",
        scale_rewards="none",
        beta=0.0,
        epsilon=3e-4,
        epsilon_high=4e-4,
        num_generations=B,
        per_device_train_batch_size=B,
        max_completion_length=T,
        use_cpu=True,
        report_to="none",
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=lambda completions, **kw: [0.0] * len(completions),
        args=args,
        train_dataset=Dataset.from_dict({"prompt": ["w1 w2"] * B}),
        processing_class=tokenizer,
    )
    trainer.current_gradient_accumulation_steps = 1  # set by the training loop; we call the loss directly
    return trainer


def _inputs():
    g = torch.Generator().manual_seed(0)
    old = -torch.rand(B, T, generator=g, dtype=torch.float64) * 3
    # ratios on both sides of the narrow GSPO band, so both clip branches and the unclipped one occur
    drift = (
        (torch.rand(B, T, generator=g, dtype=torch.float64) - 0.5)
        * torch.tensor([1e-4, 2e-3, -2e-3, 5e-5, 3e-3, -1e-3], dtype=torch.float64).unsqueeze(1)
        * 4
    )
    lengths = torch.tensor([9, 5, 7, 1, 3, 9])
    mask = (torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)).long()
    advantages = torch.tensor([0.75, -0.25, 0.5, -1.0, 0.25, -0.25], dtype=torch.float64)
    return old + drift, old, advantages, mask


def _trl_loss_and_grad(trainer, logps_value, old, advantages, mask):
    logps = logps_value.clone().requires_grad_(True)
    trainer._get_per_token_logps_and_entropies = lambda *a, **k: (logps, torch.zeros_like(logps), None)
    inputs = {
        "prompt_ids": torch.ones(B, 2, dtype=torch.long),
        "prompt_mask": torch.ones(B, 2, dtype=torch.long),
        "completion_ids": torch.ones(B, T, dtype=torch.long),
        "completion_mask": mask,
        "advantages": advantages,
        "old_per_token_logps": old,
    }
    loss = trainer._compute_loss(trainer.model, inputs)
    loss.backward()
    return loss.detach(), logps.grad


@pytest.mark.slow
@pytest.mark.parametrize("level", ["sequence", "token"])
def test_loss_and_gradient_equal_trl_grpo_trainer(tmp_path, level):
    trainer = _tiny_trainer(tmp_path, level)
    logps_value, old, advantages, mask = _inputs()
    trl_loss, trl_grad = _trl_loss_and_grad(trainer, logps_value, old, advantages, mask)

    logps = logps_value.clone().requires_grad_(True)
    ours = gspo_loss(logps, old, advantages, mask, level=level)
    ours.backward()

    assert trl_grad is not None and trl_grad.abs().sum() > 0  # something is unclipped, so it is a real test
    assert torch.allclose(ours.detach(), trl_loss, rtol=0, atol=1e-6), (float(ours), float(trl_loss))
    assert torch.allclose(logps.grad, trl_grad, rtol=0, atol=1e-6)
    # the clip shares we log are the ones TRL logs for the same step
    fractions = clip_fractions(logps_value, old, advantages, mask, level=level)
    metrics = trainer._metrics["train"]
    assert fractions["low"] == pytest.approx(metrics["clip_ratio/low_mean"][-1])
    assert fractions["high"] == pytest.approx(metrics["clip_ratio/high_mean"][-1])


def test_sequence_ratio_clips_on_the_mean_log_ratio():
    """One sequence far above the band with A > 0: clipped, so no gradient reaches it."""
    logps = torch.full((1, 4), 0.01, requires_grad=True)
    loss = gspo_loss(logps, torch.zeros(1, 4), torch.tensor([2.0]), torch.ones(1, 4))
    loss.backward()
    assert loss.item() == pytest.approx(-2.0 * (1 + 4e-4))
    assert torch.count_nonzero(logps.grad) == 0


def test_padding_does_not_change_the_loss():
    logps, old, advantages, mask = _inputs()
    padded = [torch.cat([x, torch.full((B, 3), 7.0, dtype=x.dtype)], dim=1) for x in (logps, old)]
    wide_mask = torch.cat([mask, torch.zeros(B, 3, dtype=mask.dtype)], dim=1)
    assert gspo_loss(*padded, advantages, wide_mask) == pytest.approx(
        float(gspo_loss(logps, old, advantages, mask))
    )


def test_bad_shapes_and_level_are_refused():
    x = torch.zeros(2, 3)
    with pytest.raises(ValueError, match=r"advantages \(3,\) must be \(B,\)"):
        gspo_loss(x, x, torch.zeros(3), x)
    with pytest.raises(ValueError, match="level='tokens'"):
        gspo_loss(x, x, torch.zeros(2), x, level="tokens")


def test_group_advantages_are_mean_centred_per_group():
    rewards = torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.2, 0.4, 0.6, 0.8])
    adv = group_advantages(rewards, 4)
    assert torch.allclose(adv[:4], torch.tensor([0.75, -0.25, -0.25, -0.25]))
    assert torch.equal(adv[4:8], torch.zeros(4))  # all solved: no signal
    assert torch.allclose(adv[8:], torch.tensor([-0.3, -0.1, 0.1, 0.3]))
    assert zero_variance_groups(rewards, 4) == 1


def test_group_scale_divides_by_the_bessel_std_as_trl_does():
    rewards = torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    adv = group_advantages(rewards, 4, scale="group")
    std = math.sqrt((0.75**2 + 3 * 0.25**2) / 3)
    assert adv[0].item() == pytest.approx(0.75 / (std + 1e-4))
    assert torch.equal(adv[4:], torch.zeros(4))  # zero variance: 0, not 0/0


def test_unscored_rewards_are_left_out_not_counted_as_zero():
    rewards = torch.tensor([1.0, float("nan"), 0.0, 0.5, float("nan"), float("nan")])
    adv = group_advantages(rewards, 3)
    assert torch.allclose(adv[:3], torch.tensor([0.5, 0.0, -0.5]))  # mean of 1 and 0, NaN gets 0
    assert torch.equal(adv[3:], torch.zeros(3))  # one score: nothing to compare it with
    assert zero_variance_groups(rewards, 3) == 1


def test_group_size_must_divide_the_rewards():
    with pytest.raises(ValueError, match="5 rewards do not split into groups of 2"):
        group_advantages(torch.zeros(5), 2)


def test_losses_import_nothing_but_torch():
    import ast
    from pathlib import Path

    import training.losses

    tree = ast.parse(Path(training.losses.__file__).read_text(encoding="utf-8"))
    tops = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    tops |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert tops <= {"torch", "__future__", "typing"}, tops
