"""Multi-process GSPO (training/distributed.py), launched for real: torch.distributed.run starts two
CPU processes (gloo) of tests/training/distributed_gspo_main.py. Each rank rolls out its own task,
the gradients are averaged, and the final weights are identical on both ranks (and moved); rank 0
alone writes the warehouse and output folder, so there is one set of rows covering both ranks'
rollouts. The same code runs under `accelerate launch --num_processes 2 --cpu`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import torch

from training.gspo_dataset import iteration_dataset, iteration_run_id

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    out = tmp_path_factory.mktemp("ddp")
    warehouse = out / "w.duckdb"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
           "--master_addr", "127.0.0.1", "--master_port", str(_free_port()),
           "-m", "tests.training.distributed_gspo_main", str(out), str(warehouse)]  # fmt: skip
    env = os.environ | {"OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"torchrun failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    ranks = [torch.load(out / f"rank-{r}.pt", weights_only=False) for r in (0, 1)]
    return out, warehouse, ranks


def _rows(warehouse: Path, query: str, *params) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute(query, list(params)).fetchall()


def test_ranks_roll_out_their_own_tasks_and_end_with_identical_moved_weights(launched):
    _, _, (zero, one) = launched
    for iteration in (1, 2):
        mine = dict(zero["drawn"])[iteration], dict(one["drawn"])[iteration]
        assert len(mine[0]) == len(mine[1]) == 1 and sorted(mine[0] + mine[1]) == ["task-a", "task-b"]
    assert torch.equal(zero["initial"], one["initial"])
    assert torch.equal(zero["final"], one["final"])
    assert not torch.equal(zero["initial"], zero["final"])  # the averaged update did move them
    assert zero["steps"] == one["steps"] == 2 and zero["run_id"] == one["run_id"]


def test_one_set_of_rows_covers_both_ranks(launched):
    out, warehouse, (zero, _) = launched
    run_id = zero["run_id"]
    steps = _rows(warehouse, "SELECT iteration, rollouts, groups FROM training_steps ORDER BY iteration")
    assert steps == [(1, 4, 2), (2, 4, 2)]  # one row per iteration, both ranks' 2 groups of 2
    assert _rows(warehouse, "SELECT count(*) FROM training_runs") == [(1,)]
    got = _rows(warehouse, "SELECT iteration, tuple_id, repeat, reward FROM gspo_rollouts ORDER BY ALL")
    want = [(i, t, k, r) for i in (1, 2) for t, rs in
            (("task-a", [1.0, 0.0]), ("task-b", [0.0, 1.0])) for k, r in enumerate(rs)]  # fmt: skip
    assert got == want
    rollouts = _rows(warehouse, "SELECT run_id, count(*) FROM rollouts GROUP BY run_id ORDER BY run_id")
    assert rollouts == [(iteration_run_id(run_id, 1), 4), (iteration_run_id(run_id, 2), 4)]
    for i in (1, 2):
        lines = (iteration_dataset(out / "gspo", i) / "trajectories.jsonl").read_text().splitlines()
        assert len(lines) == 4
