"""SFT over two processes, launched for real: torch.distributed.run starts two CPU ranks (gloo) of
`python -m training.launch` on a config file, as a user would on GPUs. The Trainer splits the samples
between the ranks, rank 0 alone writes the warehouse and the output folder, and the saved model
reloads whole. FSDP, which accelerate applies only on accelerators, is refused on CPUs with a clear
error instead of silently running data-parallel."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import duckdb
import pytest
import yaml
from transformers import Qwen2VLForConditionalGeneration

from training.tiny import tiny_policy

from .test_data import write_dataset
from .test_distributed import ROOT, _free_port


def _config(tmp_path) -> str:
    for k in range(4):
        write_dataset(tmp_path / "ds", n_steps=3, rid=f"calc.rename-000{k}__r0")
    path = tmp_path / "sft.yaml"
    path.write_text(yaml.safe_dump({
        "kind": "sft", "model": "tiny:qwen2-vl", "family": "qwen2.5-vl", "datasets": [str(tmp_path / "ds")],
        "output_dir": str(tmp_path / "sft"), "epochs": 2, "learning_rate": 3e-3, "min_learning_rate": 3e-4,
        "save_steps": 100,
    }))  # fmt: skip
    return str(path)


@pytest.mark.slow
def test_two_ranks_train_one_sft_run_that_rank_zero_records(tmp_path):
    warehouse = tmp_path / "w.duckdb"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
           "--master_addr", "127.0.0.1", "--master_port", str(_free_port()),
           "-m", "training.launch", _config(tmp_path), "--warehouse", str(warehouse)]  # fmt: skip
    env = os.environ | {"OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"torchrun failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    summary = json.loads(done.stdout[done.stdout.index("{") :])  # printed by rank 0 only
    assert done.stdout.count('"run_id"') == 1 and summary["kind"] == "sft"
    assert summary["steps"] == 4  # 4 samples over 2 ranks, 2 epochs
    with duckdb.connect(str(warehouse), read_only=True) as con:
        assert con.execute("SELECT count(*), max(step) FROM training_steps").fetchall() == [(4, 4)]
        assert con.execute("SELECT run_id, status FROM training_runs").fetchall() == [
            (summary["run_id"], "done")
        ]
    saved = Qwen2VLForConditionalGeneration.from_pretrained(tmp_path / "sft")
    assert sum(p.numel() for p in saved.parameters()) == sum(p.numel() for p in tiny_policy()[0].parameters())


def test_fsdp_on_cpus_is_refused_before_any_work(tmp_path):
    from training.launch import main

    assert main([_config(tmp_path), "--set", "fsdp=true", "--warehouse", str(tmp_path / "w.duckdb")]) == 1
    assert not (tmp_path / "sft").exists() and not (tmp_path / "w.duckdb").exists()
