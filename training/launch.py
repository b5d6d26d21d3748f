"""A trainer run under a multi-process launcher, one rank per process:

    torchrun --nproc_per_node 4 -m training.launch configs/sft-tiny.yaml --set epochs=2
    accelerate launch --num_processes 4 -m training.launch configs/gspo-tiny.yaml

`cuagym train` runs one process inside a Prefect flow; a launcher starts N copies of this module
instead (no Prefect: N flow runs of one training run would be noise). The config's `kind` picks the
trainer: SFT through transformers' Trainer (data-parallel, or FSDP2 with `fsdp: true` on GPUs), GSPO
data-parallel (training/distributed.py: each rank rolls out its share of the drawn tasks on desktops
of its own). Rank 0 alone writes the warehouse, the output folder and the checkpoints, plays the
held-out evaluation, and prints the summary; the exit code is 0 when the run finished, 1 with the
error's message and hint when it was a `CuagymError`.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from contextlib import ExitStack
from pathlib import Path

from infra.errors import CuagymError
from infra.settings import get_settings
from tasks.rollout.bundles import bundle_dirs
from training.config import GSPOConfig, SFTConfig, load_config, parse_overrides
from training.distributed import launched_ranks
from training.environments import desktop_provider, evaluator
from training.episodes import EpisodeCollector
from training.gspo import run_gspo
from training.sft import run_id_for, run_sft

log = logging.getLogger(__name__)


def train(config: SFTConfig | GSPOConfig, warehouse: Path) -> dict:
    """Run the config's trainer in this rank; its summary (the same on every rank but the evaluations,
    which rank 0 alone plays)."""
    main = launched_ranks().main
    run_id = run_id_for(config.kind, Path(config.output_dir))
    with ExitStack() as stack:
        if isinstance(config, SFTConfig):
            evaluate = stack.enter_context(evaluator(config, None, run_id)) if main else None
            result = run_sft(config, warehouse=warehouse, evaluate=evaluate)
            losses = result.losses
        else:
            bundles = bundle_dirs(list(config.tuples))
            held_out = bundle_dirs(list(config.eval_tuples)) if config.eval_tuples and main else []
            provider = stack.enter_context(desktop_provider(bundles + held_out, run_id))
            evaluate = stack.enter_context(evaluator(config, provider, run_id)) if main else None
            collector = EpisodeCollector(config, provider, bundles)
            result = run_gspo(config, collector, collector.task_ids, warehouse=warehouse, evaluate=evaluate)
            losses = result.losses
    return {
        "run_id": result.run_id,
        "kind": config.kind,
        "output_dir": str(result.output_dir),
        "steps": result.steps,
        "losses": losses,
        "evaluations": [e.row() for e in result.evaluations],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.launch", description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path, help="trainer config (YAML with kind: sft|gspo)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], help="KEY=VALUE override")
    parser.add_argument(
        "--warehouse", type=Path, default=None, help="warehouse file (default: the settings')"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s rank%(rank)s %(name)s: %(message)s")
    rank = launched_ranks().rank
    for handler in logging.getLogger().handlers:
        handler.addFilter(lambda record: setattr(record, "rank", rank) or True)
    try:
        config = load_config(args.config, parse_overrides(args.overrides))
        summary = train(config, args.warehouse or get_settings().warehouse_path)
    except CuagymError as exc:
        print(f"error (rank {rank}): {exc}", file=sys.stderr)
        return 1
    if rank == 0:
        print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
