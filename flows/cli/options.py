"""Option groups shared by `cuagym synth` and `cuagym retry` (any command that builds AgentParams),
each as one decorator: the LLM options and the mutation stage's budget.

Each option's name is the field it fills, so a command passes the LLM ones on with `**llm`.
Precedence (infra/llm_config.py): these flags beat CUAGYM_LLM_* env vars, which beat --llm-config.
"""

from __future__ import annotations

from pathlib import Path

import click

_ROLES = ("task-writer", "generator", "discriminator", "critic", "judge")


def llm_options(fn):
    """Add --model, --api-base, --<role>-model, --<role>-backend, --llm-config, --llm-cache, --critics."""
    options = [
        click.option(
            "--model",
            default=None,
            help="litellm model for every LLM role, e.g. anthropic/claude-sonnet-4-5 "
            "or hosted_vllm/<name> (with --api-base).",
        ),
        click.option(
            "--api-base",
            default=None,
            help="Base URL of an OpenAI-compatible server (vLLM, SGLang), e.g. http://host:8000/v1.",
        ),
        *[
            click.option(
                f"--{role}-model",
                default=None,
                help=f"Model for the {role.replace('-', ' ')} (overrides --model).",
            )
            for role in _ROLES
        ],
        *[
            click.option(
                f"--{role}-backend",
                type=click.Choice(["procedural", "llm"]),
                default=None,
                help=f"Backend of the {role.replace('-', ' ')} (default: --backend).",
            )
            for role in ("task-writer", "generator", "discriminator")
        ],
        click.option(
            "--llm-config",
            type=click.Path(dir_okay=False),
            default=None,
            help="YAML with per-role LLM settings (see infra/llm_config.py).",
        ),
        click.option(
            "--llm-cache/--no-llm-cache",
            default=None,
            help="Cache model replies on disk (var/llm-cache) so reruns are reproducible.",
        ),
        click.option(
            "--critics",
            type=int,
            default=None,
            help="Critic votes per verified tuple (default 3 with --backend llm).",
        ),
        click.option(
            "--agent-steps",
            type=int,
            default=12,
            show_default=True,
            help="Tool-call budget of each LLM agent turn.",
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def mutation_options(fn):
    """--mutants / --corruption-mutants: the mutation stage's budget per passing round."""
    fn = click.option(
        "--corruption-mutants",
        default=3,
        show_default=True,
        type=click.IntRange(0, 16),
        help="Corruption mutants per passing round.",
    )(fn)
    return click.option(
        "--mutants",
        default=8,
        show_default=True,
        type=click.IntRange(0, 64),
        help="Partial-revert mutants per passing round (0 and 0: no mutation stage).",
    )(fn)


def teacher_options(fn):
    """--teacher-k / --teacher-limit / --teacher-model / --teacher-max-steps: the teacher stage."""
    fn = click.option(
        "--teacher-max-steps",
        default=80,
        show_default=True,
        type=click.IntRange(1, 500),
        help="Model steps per teacher rollout.",
    )(fn)
    fn = click.option(
        "--teacher-model",
        default=None,
        help="litellm model that rolls out families without a scripted teacher (default: none).",
    )(fn)
    fn = click.option(
        "--teacher-limit",
        default=None,
        type=click.IntRange(1, None),
        help="At most this many exported tuples rolled out per batch (default: all).",
    )(fn)
    return click.option(
        "--teacher-k",
        default=1,
        show_default=True,
        type=click.IntRange(0, 16),
        help="Teacher rollouts per exported tuple on real desktops (0: no teacher stage).",
    )(fn)


def decontaminate_option(fn):
    """--decontaminate: benchmark sets a synthesis or retry run keeps its tuples away from."""
    return click.option(
        "--decontaminate",
        "decontaminate",
        multiple=True,
        type=click.Path(path_type=Path),
        help="Benchmark set no tuple may be too close to: an OSWorld checkout (evaluation_examples/) or a "
        "JSONL of {id, instruction, targets}. Repeatable; default: configs/decontamination.yaml's sets.",
    )(fn)


def warehouse_option(fn):
    """--warehouse: which DuckDB file a read-only command reads (through its snapshot)."""
    return click.option(
        "--warehouse",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="DuckDB file (default var/warehouse.duckdb); its snapshot is what is read.",
    )(fn)


def runner_options(fn):
    """--runner / --dask-address: where the per-tuple (per-episode) tasks run."""
    fn = click.option(
        "--dask-address",
        default=None,
        metavar="tcp://HOST:PORT",
        help="With --runner dask: an existing Dask scheduler, e.g. tcp://scheduler:8786 "
        "(default: a LocalCluster of --workers processes).",
    )(fn)
    return click.option(
        "--runner",
        type=click.Choice(["local", "dask"]),
        default="local",
        show_default=True,
        help="local: threads of this process; dask: Dask worker processes, each with its own sandboxes.",
    )(fn)
