"""GSPO on several processes (one per GPU, or CPU processes for the test): data parallel.

Launched by `accelerate launch --num_processes N ...` or `torchrun --nproc_per_node N ...`, which
set RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT; a plain `python` run is rank 0 of 1 and nothing
here talks to another process. Each iteration every rank draws the same tasks (the draw is seeded by
(seed, iteration)) and rolls out its share of them (`shard`); the update averages the gradients over
the ranks before clipping and stepping (`average_gradients`), so every rank applies the same step and
the weights stay identical (they start identical: `broadcast_weights`). The ranks' rollouts and
figures are then gathered (`gather`) so that rank 0 — the only process that writes the warehouse,
the output folder and the checkpoints — records the whole iteration, and every rank updates the
same frontier EMAs. Backend: nccl on GPUs, gloo on the CPU.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist

from infra.errors import ConfigError
from training.episodes import Rollout
from training.gspo_records import IterationStats


@dataclass(frozen=True)
class Ranks:
    rank: int = 0
    world: int = 1

    @property
    def main(self) -> bool:
        """The process that writes the warehouse, the output folder and the checkpoints."""
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world > 1


def init_ranks() -> Ranks:
    """This process's rank, its process group started when a launcher ran several."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return Ranks()
    if not dist.is_initialized():
        backend = "nccl" if torch.cuda.is_available() else "gloo"
        dist.init_process_group(backend)
        if backend == "nccl":  # one GPU per rank, as accelerate and torchrun place them
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    return Ranks(dist.get_rank(), dist.get_world_size())


def launched_ranks() -> Ranks:
    """This process's rank as the launcher set it (RANK, WORLD_SIZE), without starting a process
    group: transformers' Trainer starts its own."""
    return Ranks(int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1")))


def shard(drawn: list[str], ranks: Ranks) -> list[str]:
    """This rank's share of the drawn tasks; every rank gets as many (so they step in lockstep)."""
    if len(drawn) % ranks.world:
        raise ConfigError(
            f"{len(drawn)} tasks per iteration cannot be shared by {ranks.world} processes",
            hint="make tasks_per_iteration a multiple of the number of processes",
        )
    return drawn[ranks.rank :: ranks.world]


def broadcast_weights(model: Any, ranks: Ranks) -> None:
    """Rank 0's weights on every rank (a random init or a hub download may differ per process)."""
    if ranks.distributed:
        for tensor in list(model.parameters()) + list(model.buffers()):
            dist.broadcast(tensor.data, src=0)


def average_gradients(model: Any, ranks: Ranks) -> None:
    """Every trainable parameter's gradient averaged over the ranks (a rank whose samples all had
    advantage 0 took no backward pass: it contributes zeros)."""
    if not ranks.distributed:
        return
    for param in model.parameters():
        if not param.requires_grad:
            continue
        if param.grad is None:
            param.grad = torch.zeros_like(param)
        dist.all_reduce(param.grad, op=dist.ReduceOp.SUM)
        param.grad /= ranks.world


def gather(value: Any, ranks: Ranks) -> list[Any]:
    """`value` of every rank, in rank order (pickled through the process group)."""
    if not ranks.distributed:
        return [value]
    out: list[Any] = [None] * ranks.world
    dist.all_gather_object(out, value)
    return out


def finish(ranks: Ranks) -> None:
    if ranks.distributed and dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()


def merge_stats(parts: list[IterationStats]) -> IterationStats:
    """One iteration's figures over all ranks: rollouts, groups and counts summed, the loss and the
    mean ratio averaged (each rank's loss is already a mean over its samples), rank 0's step."""
    first = parts[0]
    ratios = [p.ratio_mean for p in parts if p.ratio_mean is not None]
    tokens = sum(p.trained_tokens for p in parts)
    return IterationStats(
        iteration=first.iteration,
        step=first.step,
        loss=sum(p.loss for p in parts) / len(parts),
        rewards=[r for p in parts for r in p.rewards],
        advantages=[a for p in parts for a in p.advantages],
        groups=sum(p.groups for p in parts),
        zero_variance_groups=sum(p.zero_variance_groups for p in parts),
        samples=sum(p.samples for p in parts),
        trained_samples=sum(p.trained_samples for p in parts),
        tokens=sum(p.tokens for p in parts),
        trained_tokens=tokens,
        ratio_mean=sum(ratios) / len(ratios) if ratios else None,
        clip_low_fraction=sum(p.clip_low_fraction * p.trained_tokens for p in parts) / tokens
        if tokens
        else 0.0,
        clip_high_fraction=sum(p.clip_high_fraction * p.trained_tokens for p in parts) / tokens
        if tokens
        else 0.0,
        grad_norm=first.grad_norm,  # computed on the averaged gradients: the same on every rank
        seconds=max(p.seconds for p in parts),
        rollout_seconds=max(p.rollout_seconds for p in parts),
    )


def gather_iteration(
    stats: IterationStats, groups: list[list[Rollout]], ranks: Ranks
) -> tuple[IterationStats, list[list[Rollout]]]:
    """The whole iteration on every rank: all ranks' groups (in rank order) and merged figures."""
    if not ranks.distributed:
        return stats, groups
    parts = gather((stats, groups), ranks)
    return merge_stats([s for s, _ in parts]), [g for _, part in parts for g in part]


def seed_sampling(ranks: Ranks, seed: int, step: int) -> None:
    """A sampling seed of this rank's own: ranks that drew similar prompts would otherwise sample the
    very same replies (one RNG state restored from rank 0's checkpoint, or one seed for all), and
    their gradients would repeat or cancel instead of adding up."""
    if ranks.distributed:
        torch.manual_seed(seed + 1_000_003 * ranks.rank + step)
