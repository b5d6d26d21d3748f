"""`cuagym train`: train a policy from a config file (training/config.py) with flag overrides."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.synth import quiet_prefect_console
from flows.cli.tables import evaluations_table
from training.config import parse_overrides


def _loss(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


@click.group()
def train() -> None:
    """Train policies: `sft` (supervised, on teacher successes) and `gspo` (RL on verified tuples).

    Example:

        cuagym train sft --config configs/sft-tiny.yaml --set epochs=2
    """


_CONFIG = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="YAML file of SFTConfig / GSPOConfig keys (training/config.py); flags in --set override it.",
)
_SET = click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override one config key.")
_WAREHOUSE = click.option(
    "--warehouse",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Warehouse file for the step metrics (default: the settings').",
)


@train.command("sft")
@_CONFIG
@_SET
@_WAREHOUSE
@click.pass_context
@handle_errors
def sft(ctx, config_path, overrides, warehouse):
    """Supervised fine-tuning on successful trajectories; re-running on the same output_dir resumes.

    Checkpoints go to output_dir (save_pretrained: model + processor); every step's loss, learning
    rate, tokens and seconds go to the warehouse (view training_curves). `model: tiny:qwen2-vl`
    trains the tiny CPU test policy.

    Example:

        cuagym train sft --config configs/sft-tiny.yaml

        cuagym train sft --set model=tiny:qwen2-vl --set "datasets=[output/rollouts]" --set family=qwen2.5-vl
    """
    _run(ctx, "sft", config_path, overrides, warehouse, view="training_curves")


@train.command("gspo")
@_CONFIG
@_SET
@_WAREHOUSE
@click.pass_context
@handle_errors
def gspo(ctx, config_path, overrides, warehouse):
    """GSPO on verified tuples: G rollouts of the current policy per drawn task on real desktops,
    rewards from each bundle's reward.py, group advantages, the clipped sequence-ratio update.

    The checkpoint is saved to output_dir after every iteration (save_pretrained); per iteration the
    loss, rewards, advantages, zero-variance groups, clip fractions, tokens and seconds go to the
    warehouse (view gspo_curves; every rollout in gspo_rollouts).

    Example:

        cuagym train gspo --config configs/gspo-tiny.yaml --set iterations=2
    """
    _run(ctx, "gspo", config_path, overrides, warehouse, view="gspo_curves")


def _run(ctx, kind: str, config_path, overrides, warehouse, *, view: str) -> None:
    verbose = (ctx.find_root().params.get("verbose") or 0) > 0
    quiet_prefect_console(verbose)
    from flows.training import training_flow
    from training.config import TrainingParams, load_config

    config = load_config(config_path, parse_overrides(overrides), kind=kind)
    summary = training_flow(TrainingParams(config=config, warehouse=warehouse))
    table = Table(title=f"{kind} {summary.run_id}")
    for col in ("steps", "samples", "dropped", "resumed from", "first loss", "last loss", "seconds"):
        table.add_column(col, justify="right")
    table.add_row(
        str(summary.steps), str(summary.samples), str(summary.dropped), str(summary.resumed_from or "-"),
        _loss(summary.first_loss), _loss(summary.last_loss), f"{summary.seconds:.1f}",
    )  # fmt: skip
    console.print(table)
    if summary.evaluations:
        console.print(evaluations_table(summary.run_id, summary.evaluations))
    console.print(f"checkpoint: {summary.output_dir} (from_pretrained)")
    console.print(f"warehouse:  cuagym sql \"SELECT * FROM {view} WHERE run_id = '{summary.run_id}'\"")
