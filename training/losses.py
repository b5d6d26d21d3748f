"""The GSPO objective and GRPO-style group advantages, as pure torch functions.

Nothing here imports anything but torch, so any tool can test these in isolation. Both match TRL 1.16's
`GRPOTrainer` (tests/training/test_losses.py calls TRL on the same tensors and compares loss and
gradients), with `loss_type="grpo"`, `beta=0.0` and `importance_sampling_level=level`:

- GSPO (Zheng et al. 2025, §4; CUA-Gym appendix C.2): the importance ratio of a sequence is
  s_i = exp(mean over its completion tokens of (logp − old_logp)); each sequence's loss is
  −min(s_i·A_i, clip(s_i, 1 − ε_low, 1 + ε_high)·A_i), averaged over its tokens, then over sequences.
- `level="token"`: the same with one ratio per token (GRPO/PPO's token-level clipping).

Example:
    >>> logps = torch.zeros(2, 3, requires_grad=True)
    >>> gspo_loss(logps, torch.zeros(2, 3), torch.tensor([1.0, -1.0]), torch.ones(2, 3))
    tensor(0., grad_fn=<MeanBackward0>)
"""

from __future__ import annotations

from typing import Literal

import torch

STD_EPS = 1e-4  # TRL's: advantages / (std + 1e-4) when rewards are scaled


def gspo_loss(
    logps: torch.Tensor,
    old_logps: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    epsilon_low: float = 3e-4,
    epsilon_high: float = 4e-4,
    level: Literal["sequence", "token"] = "sequence",
) -> torch.Tensor:
    """The clipped policy-gradient loss over a batch of completions (a scalar to minimise).

    Shapes: `logps`, `old_logps`, `mask` are (B, T) — per-token log-probabilities of the sampled
    tokens under the current and the sampling policy, and 1 where a token is trained (completion
    tokens; prompt, padding and tool responses are 0); `advantages` is (B,).
    Reduction: per sequence, the masked token mean; then the mean over the B sequences (a sequence
    with no trained token contributes 0 but still counts in B, as in TRL).
    The ε defaults are GSPO's (3e-4 / 4e-4): sequence ratios stay near 1, so the band is narrow.
    """
    if logps.shape != old_logps.shape or logps.shape != mask.shape:
        raise ValueError(f"logps {tuple(logps.shape)}, old_logps {tuple(old_logps.shape)} and mask "
                         f"{tuple(mask.shape)} must all be (B, T)")  # fmt: skip
    if advantages.shape != logps.shape[:1]:
        raise ValueError(f"advantages {tuple(advantages.shape)} must be (B,) = ({logps.shape[0]},)")
    mask = mask.to(logps.dtype)
    tokens = mask.sum(-1).clamp(min=1.0)  # (B,)
    log_ratio = logps - old_logps.detach()  # the sampling policy is a constant
    if level == "sequence":
        log_weights = ((log_ratio * mask).sum(-1) / tokens).unsqueeze(-1)  # (B, 1)
    elif level == "token":
        log_weights = log_ratio  # (B, T)
    else:
        raise ValueError(f"level={level!r}: use 'sequence' (GSPO) or 'token'")
    ratio = torch.exp(log_weights)
    clipped = torch.clamp(ratio, 1 - epsilon_low, 1 + epsilon_high)
    adv = advantages.unsqueeze(-1)  # (B, 1)
    per_token = -torch.min(ratio * adv, clipped * adv)  # (B, 1) or (B, T); broadcasts over T below
    return ((per_token * mask).sum(-1) / tokens).mean()


def clip_fractions(
    logps: torch.Tensor,
    old_logps: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    epsilon_low: float = 3e-4,
    epsilon_high: float = 4e-4,
    level: Literal["sequence", "token"] = "sequence",
) -> dict[str, float]:
    """Share of ratios the clip bound (low: ratio < 1 − ε_low with A < 0; high: > 1 + ε_high with A > 0).

    Counted per sequence at the sequence level and per trained token at the token level, as TRL
    logs `clip_ratio/low_mean` and `clip_ratio/high_mean`.
    """
    with torch.no_grad():
        mask = mask.to(logps.dtype)
        log_ratio = logps - old_logps
        if level == "sequence":
            ratio = torch.exp((log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0))  # (B,)
            weight = torch.ones_like(ratio)
            adv = advantages
        else:
            ratio, weight, adv = torch.exp(log_ratio), mask, advantages.unsqueeze(-1)
        low = ((ratio < 1 - epsilon_low) & (adv < 0)).to(logps.dtype)
        high = ((ratio > 1 + epsilon_high) & (adv > 0)).to(logps.dtype)
        total = weight.sum().clamp(min=1.0)
        return {"low": float((low * weight).sum() / total), "high": float((high * weight).sum() / total)}


def _grouped(rewards: torch.Tensor, group_size: int) -> torch.Tensor:
    if rewards.dim() != 1:
        raise ValueError(f"rewards {tuple(rewards.shape)} must be (N,)")
    if group_size < 1 or rewards.numel() % group_size:
        raise ValueError(f"{rewards.numel()} rewards do not split into groups of {group_size}")
    return rewards.view(-1, group_size)  # (N / G, G): consecutive rewards share a task


def group_advantages(
    rewards: torch.Tensor, group_size: int, *, scale: Literal["none", "group"] = "none"
) -> torch.Tensor:
    """A_i = r_i − mean(r of its group), for N rewards in consecutive groups of `group_size`: (N,) -> (N,).

    `scale="none"` is the paper's (CUA-Gym appendix C.2, Dr. GRPO: no std normalisation);
    `scale="group"` divides by the group's std + 1e-4 (Bessel-corrected), TRL's default. A NaN reward
    (a grader that gave no score — never a 0) is left out of its group's mean and std and gets
    advantage 0, as TRL does with unscorable completions. A group whose rewards are all equal gets
    0 everywhere: it carries no signal (count those with `zero_variance_groups`).

    Example:
        >>> group_advantages(torch.tensor([1.0, 0.0, 0.5, 0.5]), 2)
        tensor([ 0.5000, -0.5000,  0.0000,  0.0000])
    """
    groups = _grouped(rewards, group_size)
    mean = torch.nanmean(groups, dim=1, keepdim=True)
    advantages = groups - mean
    if scale == "group":
        advantages = advantages / (_nanstd(groups) + STD_EPS)
    elif scale != "none":
        raise ValueError(f"scale={scale!r}: use 'none' (the paper's) or 'group' (TRL's default)")
    return torch.nan_to_num(advantages, nan=0.0).reshape(-1)


def zero_variance_groups(rewards: torch.Tensor, group_size: int) -> int:
    """How many groups have no spread in their (scored) rewards — all solved, all failed, or unscored."""
    std = _nanstd(_grouped(rewards, group_size))
    return int((torch.isnan(std) | torch.isclose(std, torch.zeros_like(std))).sum())


def _nanstd(groups: torch.Tensor) -> torch.Tensor:
    """Per-row Bessel-corrected std ignoring NaNs, (K, G) -> (K, 1); NaN where fewer than 2 scores."""
    mean = torch.nanmean(groups, dim=1, keepdim=True)
    count = (~torch.isnan(groups)).sum(dim=1, keepdim=True)
    variance = torch.nanmean((groups - mean) ** 2, dim=1, keepdim=True) * count / (count - 1)
    return torch.where(count > 1, variance.sqrt(), torch.full_like(variance, float("nan")))


def sampled_logps(logits: torch.Tensor, ids: torch.Tensor, temperature: float) -> torch.Tensor:
    """log softmax(logits / temperature) at `ids`: logits (T, V), ids (T,) -> (T,).

    The temperature is applied as TRL does (`logits / temperature` before the log-softmax), in the
    old and the new log-probs alike, so the ratio compares the distributions the tokens came from."""
    return torch.log_softmax(logits.float() / temperature, dim=-1).gather(-1, ids.unsqueeze(-1)).squeeze(-1)
