"""One rank of the two-process GSPO run that tests/training/test_distributed.py launches with
torch.distributed.run (gloo, CPU): the tiny VLM, two tasks per iteration (one per rank), a fake
`collect` (one step per episode, rewards chosen so every group has a spread). Each rank writes the
tasks it rolled out and its flattened weights (before and after) to <out>/rank-<r>.pt; rank 0
alone writes the warehouse and the GSPO output folder. Not a test module: a launched script."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import torch

from tests.training.test_gspo import _config, _rollout
from tests.training.test_gspo_dataset import SPEC, _episode
from training.gspo import run_gspo

REWARDS = {"task-a": [1.0, 0.0], "task-b": [0.0, 1.0]}


def flat(model) -> torch.Tensor:
    return torch.cat([p.detach().flatten().cpu() for p in model.parameters()])


class Collector:
    def __init__(self) -> None:
        self.drawn: list[tuple[int, list[str]]] = []
        self.initial: torch.Tensor | None = None

    def __call__(self, make_policy, iteration, task_ids):
        self.drawn.append((iteration, list(task_ids)))
        groups = []
        for task in task_ids:
            group = []
            for k, reward in enumerate(REWARDS[task]):
                policy = make_policy()
                if self.initial is None:
                    self.initial = flat(policy._model)
                rollout = _rollout(policy, task, k, reward, steps=1)
                spec = SPEC.model_copy(update={"id": task})
                rollout.spec, rollout.episode = spec, _episode(rollout, policy.model, spec)
                group.append(rollout)
            groups.append(group)
        return groups


def main(out: Path, warehouse: Path) -> None:
    rank = int(os.environ["RANK"])
    config = _config(iterations=2, group_size=2, tasks_per_iteration=2, minibatches=1, max_tokens=16,
                     output_dir=str(out / "gspo"))  # fmt: skip
    collector = Collector()
    result = run_gspo(config, collector, list(REWARDS), warehouse=warehouse)
    torch.save(
        {"drawn": collector.drawn, "initial": collector.initial, "final": flat(result.model),
         "run_id": result.run_id, "steps": result.steps},
        out / f"rank-{rank}.pt",
    )  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
