"""GSPO's rollouts as a trajectory dataset and `rollouts` rows, like the rollout flow's episodes.

Each iteration's played episodes go to `<output_dir>/rollouts/iteration-NNNN/` (trajectories.jsonl
and screenshot shards, DESIGN.md §3.4) and to the warehouse's `rollout_runs` / `rollouts` /
`rollout_steps` under the run id `<gspo run id>-iNNNN`, so `sft` can train on them (point `datasets`
at the folder), and `rollout_by_family`, pass@k and the other rollout views count them with every
other run's. One folder per iteration keeps each trajectory's id `<tuple id>__r<k>` (the dataset
card's) unique within its dataset. A kill between an iteration's rows and its checkpoint redoes that
iteration (training/gspo.py): the redone iteration's folder is written afresh and its rows replaced
(same run id, same rollout ids), never doubled.

Only the process that owns the warehouse writes here (rank 0 of a multi-process run).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from infra.trajectories import TrajectoryWriter
from tasks.rollout.batch import rollout_rows
from training.episodes import Rollout
from warehouse.store import Warehouse

DATASETS = "rollouts"  # under the GSPO output_dir


def iteration_run_id(run_id: str, iteration: int) -> str:
    """The rollout run id of one GSPO iteration (the `run_id` of its `rollouts` rows)."""
    return f"{run_id}-i{iteration:04d}"


def iteration_dataset(output_dir: Path, iteration: int) -> Path:
    return Path(output_dir) / DATASETS / f"iteration-{iteration:04d}"


def record_rollouts(
    store: Warehouse, output_dir: Path, run_id: str, iteration: int, groups: list[list[Rollout]]
) -> int:
    """Write the iteration's played episodes to its dataset folder and the warehouse; how many.
    Rollouts without an episode (their desktop failed) have nothing to write and are counted as
    `unplayed` in the rollout run's summary."""
    rollouts = [r for group in groups for r in group]
    played = [r for r in rollouts if r.episode is not None and r.spec is not None]
    out = iteration_dataset(output_dir, iteration)
    if out.exists():  # a redone iteration (see the module docstring): its first try is replaced
        shutil.rmtree(out)
    rollout_run = iteration_run_id(run_id, iteration)
    store.start_rollout_run(rollout_run, {"gspo_run_id": run_id, "iteration": iteration, "policy": "gspo"})
    with TrajectoryWriter(out) as writer:
        for rollout in played:
            episode = rollout.episode
            writer.write(episode.trajectory, episode.screenshots)
            row, steps = rollout_rows(
                episode.trajectory, rollout.spec, rollout_run, str(out), episode.timings.overhead_per_step_s
            )
            store.save_rollout(row, steps)
    solved = sum(r.reward == 1.0 for r in played)
    store.finish_rollout_run(
        rollout_run, {"rollouts": len(played), "solved": solved, "unplayed": len(rollouts) - len(played)}
    )
    return len(played)
