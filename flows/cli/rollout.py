"""`cuagym rollout`: policies drive real desktops on verified tuples; trajectories become a dataset."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import click
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.options import runner_options
from flows.cli.synth import print_published, quiet_prefect_console, with_progress


@click.command()
@click.argument("bundles", nargs=-1, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--ids", default="", help="Comma-separated tuple ids (instead of bundle dirs).")
@click.option("--app", default=None, help="Only tuples touching this app.")
@click.option("--family", default=None, help="Only this family.")
@click.option("--run", "run_id", default=None, help="Only tuples of this synthesis run.")
@click.option("--status", default="exported", show_default=True, help="Tuples in this status.")
@click.option("--limit", type=int, default=None, help="At most this many tuples.")
@click.option(
    "--policy",
    type=click.Choice(["scripted", "llm"]),
    default="scripted",
    show_default=True,
    help="scripted: the family's GUI teacher; llm: a model (--model).",
)
@click.option("--k", default=1, show_default=True, type=click.IntRange(1, 64), help="Episodes per tuple.")
@click.option(
    "--max-steps", default=80, show_default=True, type=click.IntRange(1, 500), help="Model steps per episode."
)
@click.option(
    "--workers", default=1, show_default=True, type=click.IntRange(1, 16), help="Desktops side by side."
)
@click.option(
    "--standby",
    is_flag=True,
    help="Set up the desktop of a tuple's next episode while one plays (one more desktop per tuple in "
    "flight; pays off when the policy, not the desktop, is the bottleneck).",
)
@click.option(
    "--env",
    "env_kind",
    type=click.Choice(["desktop", "docker"]),
    default="desktop",
    show_default=True,
    help="desktop: bubblewrap sandboxes over this machine's apps; docker: containers of the desktop image.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),  # a str: Path() would fold the // of s3://
    default=None,
    help="Dataset dir, or s3://bucket/prefix (default output/rollouts).",
)
@click.option(
    "--model", default=None, help="litellm model of the llm policy, e.g. hosted_vllm/Qwen/Qwen3.5-9B."
)
@click.option("--api-base", default=None, help="OpenAI-compatible base URL (vLLM, SGLang).")
@click.option(
    "--model-family", default="qwen3.5", show_default=True, help="Tool-call format and coordinate space."
)
@click.option(
    "--max-pixels",
    default=None,
    type=int,
    help="The served processor's max_pixels, if not the family's stock one: the frame the model sees, "
    "the resolution its prompt states and the click mapping follow it.",
)
@click.option("--temperature", default=0.7, show_default=True, type=float)
@click.option("--max-tokens", default=3072, show_default=True, type=int)
@click.option(
    "--judge-model", default=None, help="litellm model that rules on each final state (flags disagreements)."
)
@click.option("--judge-api-base", default=None, help="The judge's OpenAI-compatible base URL.")
@runner_options
@click.pass_context
@handle_errors
def rollout(
    ctx,
    bundles,
    ids,
    app,
    family,
    run_id,
    status,
    limit,
    policy,
    k,
    max_steps,
    workers,
    standby,
    env_kind,
    out,
    model,
    api_base,
    model_family,
    max_pixels,
    temperature,
    max_tokens,
    judge_model,
    judge_api_base,
    runner,
    dask_address,
):
    """Roll out a policy on verified tuples in real desktops; write the trajectory dataset.

    Tuples are bundle dirs, or chosen from the warehouse by the filters. Each episode is a fresh
    desktop set up from the bundle, driven through screenshots, graded by the bundle's reward.py.
    Re-running the same command resumes: finished episodes are not run again.

    Example:

        cuagym rollout --family calc.padded_ids --k 2 --workers 2

        cuagym rollout output/final/* --policy llm --model hosted_vllm/Qwen3.5-9B --api-base http://gpu:8000/v1
    """
    verbose = (ctx.find_root().params.get("verbose") or 0) > 0
    quiet_prefect_console(verbose)
    from flows.rollout import rollout_flow
    from tasks.models import RolloutParams

    params = RolloutParams(
        bundles=[str(b) for b in bundles],
        task_ids=[i for i in ids.split(",") if i],
        app=app,
        family=family,
        run_id=run_id,
        status=status,
        limit=limit,
        policy=policy,
        k=k,
        max_steps=max_steps,
        workers=workers,
        standby=standby,
        env=env_kind,
        runner=runner,
        dask_address=dask_address,
        out=str(out) if out else None,
        model=model,
        api_base=api_base,
        model_family=model_family,
        max_pixels=max_pixels,
        temperature=temperature,
        max_tokens=max_tokens,
        judge_model=judge_model,
        judge_api_base=judge_api_base,
    )
    from tasks.publish import check_output

    check_output(params.out)  # a wrong bucket or key fails now, not after the run
    summary = with_progress(lambda: rollout_flow(params), label="rollouts")
    print_rollout_summary(summary)
    print_published(out)
    if any(o.error for o in summary.outcomes):
        console.print(
            "[bold red]error:[/] some episodes failed to run; their rows carry reward null and the error"
        )
        console.print(
            '[yellow]hint:[/] cuagym sql "SELECT rollout_id, reward_error FROM rollouts WHERE reward IS NULL"'
        )
        sys.exit(1)


def print_rollout_summary(summary) -> None:
    table = Table(title=f"rollouts {summary.run_id}")
    for col in (
        "family",
        "rollouts",
        "solved (1.0)",
        "scored",
        "no score",
        "resumed",
        "steps (mean)",
        "s/episode",
    ):
        table.add_column(col, justify="left" if col == "family" else "right")
    by_family = defaultdict(list)
    for o in summary.outcomes:
        by_family[o.family or o.tuple_id.split("-")[0]].append(o)
    for family, items in sorted(by_family.items()) + [("all", summary.outcomes)]:
        fresh = [o for o in items if not o.resumed]
        table.add_row(
            family,
            str(len(items)),
            str(sum(o.reward == 1.0 for o in items)),
            str(sum(o.reward is not None for o in items)),
            str(sum(o.reward is None and not o.resumed for o in items)),
            str(len(items) - len(fresh)),
            f"{sum(o.model_steps for o in fresh) / max(len(fresh), 1):.1f}",
            f"{sum(o.seconds for o in fresh) / max(len(fresh), 1):.1f}",
        )
    console.print(table)
    if summary.desktop_waits_s:
        waits = summary.desktop_waits_s
        console.print(
            f"standby: episodes waited {sum(waits) / len(waits):.2f} s for their desktops on average "
            f"(the first of each tuple sets its own up: {max(waits):.2f} s at most)"
        )
    for tuple_id, why in summary.skipped[:10]:
        console.print(f"skipped {tuple_id}: {why}")
    if len(summary.skipped) > 10:
        console.print(f"… and {len(summary.skipped) - 10} more skipped")
    disagree = [o.rollout_id for o in summary.outcomes if o.judge_disagree]
    if disagree:
        console.print(
            f"[yellow]reward_judge_disagree:[/] {len(disagree)} rollouts: {', '.join(disagree[:5])}"
        )
    console.print(f"dataset:   {summary.dataset} (trajectories.jsonl + screenshots-*.tar)")
    console.print('warehouse: cuagym sql "SELECT * FROM rollout_by_family"')
    console.print(f"wall time: {summary.seconds:.1f} s")
