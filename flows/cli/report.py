"""`cuagym report …`: analyst reports over the warehouse snapshot (a group: one subcommand per report)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.options import warehouse_option
from flows.cli.tables import evaluations_table


@click.group()
def report() -> None:
    """Reports over the warehouse snapshot (read-only; safe while a run is writing).

    Example:

        cuagym report rejections --app calc
    """


@report.command()
@click.option("--app", default=None, help="Only this app (default: every app).")
@click.option("--limit", default=10, show_default=True, help="Rows per app.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@warehouse_option
@handle_errors
def rejections(app: str | None, limit: int, fmt: str, warehouse: Path | None) -> None:
    """The most common reasons rounds fail, per app and per failed condition.

    Every failed round counts (a tuple rejected after five rounds counts five times; the `tuples`
    column counts each tuple once), plus critic rejections as condition `vote`. A cross-app tuple
    counts once, under its apps joined with '+' (calc+writer); --app calc includes it. The condition
    is the first agreement condition that failed, or the stage that failed instead (generator,
    discriminator, mutation, pipeline). The example column is the first line of feedback the agents
    were given.

    Example:

        cuagym report rejections --app calc --limit 5
    """
    from infra.settings import get_settings
    from warehouse.reports import rejection_report

    result = rejection_report(warehouse or get_settings().warehouse_path, app)
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    shown, per_app = [], {}
    for row in rows:
        per_app[row["app"]] = per_app.get(row["app"], 0) + 1
        if per_app[row["app"]] <= limit:
            shown.append(row)
    if fmt == "json":
        click.echo(json.dumps(shown, default=str, indent=2))
        return
    table = Table(title="rejections by app and condition" + (f" ({app})" if app else ""))
    for col in ("app", "condition", "reason", "rounds", "tuples", "example"):
        table.add_column(col, justify="right" if col in ("rounds", "tuples") else "left", overflow="fold")
    for row in shown:
        example = (row["example"] or "")[:160]
        table.add_row(
            row["app"], row["condition"], row["reason"] or "", str(row["rounds"]), str(row["tuples"]), example
        )
    Console().print(table)
    console.print(f"{sum(r['rounds'] for r in rows)} failed round(s) / vote(s) over {len(per_app)} app(s)")


@report.command()
@click.option("--run", "run_id", default=None, help="Run id (default: the latest run).")
@click.option(
    "--chart",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the PNG (default output/reports/<run>-coverage.png).",
)
@warehouse_option
@handle_errors
def coverage(run_id: str | None, chart: Path | None, warehouse: Path | None) -> None:
    """Coverage of a run's batch against its quotas, its yield per stage, and a PNG chart.

    Example:

        cuagym report coverage --run run-f9e1c7a78a98
    """
    from flows.cli.tables import coverage_table, print_chart, print_quota_notes
    from infra.settings import get_settings
    from tasks import coverage as reports

    settings = get_settings()
    path = warehouse or settings.warehouse_path
    rows = reports.coverage(path, run_id)
    if not rows:
        console.print("no run with sampled specs in the warehouse yet")
        return
    run_id = rows[0]["run_id"]
    Console().print(
        coverage_table(rows, dimensions=("app", "difficulty", "scope", "domain", "scenario", "platform"))
    )
    yields = Table(title="yield per stage")
    stages = ("sampled", "generated", "verified", "exported", "rejected", "yield")
    for col in stages:
        yields.add_column(col, justify="right")
    for row in reports.yield_by_stage(path, run_id):
        yields.add_row(*[str(row[c]) for c in stages])
    Console().print(yields)
    print_quota_notes(console, reports.quota_notes(path, run_id))
    target = chart or settings.output_dir / "reports" / f"{run_id}-coverage.png"
    print_chart(console, str(reports.coverage_chart(rows, target)))


@report.command()
@click.option("--run", "run_id", default=None, help="Only this run (default: every run).")
@click.option(
    "--chart",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the PNG (default output/reports/<run>-mutation.png, all-runs-mutation.png without --run).",
)
@warehouse_option
@handle_errors
def mutation(run_id: str | None, chart: Path | None, warehouse: Path | None) -> None:
    """Mutation scores per family and app, every surviving mutant, and a PNG chart.

    A mutant is the golden state with part of the task undone, or damaged; a faithful reward
    scores it below 1.0 (killed). Survivors name the family reward to fix.

    Example:

        cuagym report mutation --run run-f9e1c7a78a98
    """
    from infra.settings import get_settings
    from tasks.mutation.report import mutation_by_family, mutation_chart, surviving_mutants

    settings = get_settings()
    path = warehouse or settings.warehouse_path
    rows = mutation_by_family(path, run_id)
    if not rows:
        console.print("no tuple has reached the mutation stage yet")
        return
    table = Table(title="mutation score per family" + (f" ({run_id})" if run_id else ""))
    for col in (
        "family",
        "app",
        "tuples",
        "mutants",
        "killed",
        "score",
        "with survivors",
        "skipped",
        "stage errors",
    ):
        table.add_column(col, justify="left" if col in ("family", "app") else "right")
    for r in rows:
        score = "n/a" if r["mutation_score"] is None else f"{r['mutation_score']:.1%}"
        table.add_row(
            r["family"],
            r["app"],
            str(r["tuples"]),
            str(r["mutants"]),
            str(r["killed"]),
            score,
            str(r["tuples_with_survivors"]),
            str(r["skipped"] or 0),
            str(r["stage_errors"]),
        )
    Console().print(table)
    survivors = surviving_mutants(path, run_id)
    if survivors:
        found = Table(title="surviving mutants (the reward gave them 1.0)")
        for col in ("family", "task", "mutant", "what"):
            found.add_column(col, overflow="fold")
        for s in survivors:
            found.add_row(s["family"], s["task_id"], s["mutant_id"], s["what"])
        Console().print(found)
    total = sum(r["mutants"] or 0 for r in rows)
    killed = sum(r["killed"] or 0 for r in rows)
    skipped = sum(r["skipped"] or 0 for r in rows)
    console.print(
        f"overall: {killed}/{total} mutants killed"
        + (f" ({killed / total:.1%})" if total else "")
        + f", {skipped} skipped"
    )
    # one chart per run (and one for every run together): a run's chart never overwrites another's
    target = chart or settings.output_dir / "reports" / f"{run_id or 'all-runs'}-mutation.png"
    console.print(f"chart: {mutation_chart(rows, target)}")


def _figure(value: float | None, fmt: str = ".4f") -> str:
    return "-" if value is None else format(value, fmt)


def _training_summary(run: dict) -> Table:
    # one row per figure: run ids and model paths are long, and a wide table would cut them
    table = Table(title=f"training run {run['run_id']}")
    table.add_column("figure")
    table.add_column("value", overflow="fold")
    gspo = run["kind"] == "gspo"
    iterations = [("iterations", str(run["iterations"] or 0))] if gspo else []
    # GSPO: an iteration whose groups all have zero variance samples tokens but trains none, so the
    # update's tokens alone would read 0 for a run that did sample
    sampled = [("tokens sampled", str(run["sampled_tokens"] or 0))] if gspo else []
    for name, value in [
        ("run", run["run_id"]), ("kind", run["kind"]), ("model", run["model"]), ("status", run["status"]),
        ("steps", str(run["steps"] or 0)), *iterations, ("first loss", _figure(run["first_loss"])),
        ("last loss", _figure(run["last_loss"])), *sampled,
        ("tokens (updates)" if gspo else "tokens", str(run["tokens"])),
        ("tokens trained", str(run["trained_tokens"])),
        ("tokens/s", _figure(run["tokens_per_s"], ".1f") + " (tokens / step seconds)"),
    ]:  # fmt: skip
        table.add_row(name, value)
    return table


def _gspo_iterations(steps: list[dict]) -> Table:
    # compact (no vertical rules, short headers): ten figures per iteration fit in 80 columns
    table = Table(title="GSPO iterations", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    cols = ("iter", "step", "loss", "reward", "unscored", "zero-var", "clip lo", "clip hi", "|A|", "tok/s")
    for col in cols:
        table.add_column(col, justify="right")
    for s in steps:
        tokens_per_s = s["tokens"] / s["seconds"] if s["seconds"] else None
        table.add_row(
            str(s["iteration"]), str(s["step"]), _figure(s["loss"], ".3g"), _figure(s["reward_mean"], ".3f"),
            str(s["unscored"] or 0), f"{s['zero_variance_groups'] or 0}/{s['groups'] or 0}",
            _figure(s["clip_low_fraction"], ".3f"), _figure(s["clip_high_fraction"], ".3f"),
            _figure(s["advantage_abs_mean"], ".3f"), _figure(tokens_per_s, ".0f"),
        )  # fmt: skip
    return table


@report.command("llm")
@click.option("--role", default=None, help="Only this role (generator, discriminator, critic, agent, ...).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@warehouse_option
@handle_errors
def llm(role: str | None, fmt: str, warehouse: Path | None) -> None:
    """LLM calls per role and model: calls, failed tries, local response-cache hits, input tokens and
    how many of them the provider's prompt cache served, output tokens, cost, latency p50/p95.

    Example:

        cuagym report llm --role discriminator
    """
    from infra.settings import get_settings
    from warehouse.reports import llm_report

    result = llm_report(warehouse or get_settings().warehouse_path, role)
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    if fmt == "json":
        click.echo(json.dumps(rows, default=str, indent=2))
        return
    if not rows:
        console.print("no LLM calls in the warehouse yet (run `cuagym synth --backend llm`)")
        return
    print_llm_calls(rows, "LLM calls by role")


def print_llm_calls(rows: list[dict], title: str) -> None:
    """The per-role table of `cuagym report llm` (rows of view llm_by_role's columns) and its totals."""
    table = Table(title=title, box=box.SIMPLE_HEAVY)
    columns = {
        "role": "role", "model": "model", "calls": "calls", "failed_tries": "failed",
        "response_cache_hits": "resp. cache", "input_tokens": "input tok",
        "prompt_cache_share": "prompt-cached", "output_tokens": "output tok", "cost_usd": "cost $",
        "latency_p50_s": "p50 s", "latency_p95_s": "p95 s",
    }  # fmt: skip
    for key, heading in columns.items():
        table.add_column(heading, justify="left" if key in ("role", "model") else "right")
    for row in rows:
        table.add_row(*[_cell(key, row[key]) for key in columns])
    Console().print(table)
    total_in = sum(r["input_tokens"] for r in rows)
    uncached = sum(r["uncached_input_tokens"] for r in rows)
    console.print(
        f"{sum(r['calls'] for r in rows)} call(s); {total_in:,} input tokens, {uncached:,} of them not "
        f"served by a prompt cache; {sum(r['output_tokens'] for r in rows):,} output tokens"
    )


def _cell(key: str, value) -> str:
    if value is None:
        return "-"
    if key == "prompt_cache_share":
        return f"{value:.0%}"
    if key in ("latency_p50_s", "latency_p95_s"):
        return f"{value:.2f}"
    if key == "cost_usd":
        return f"{value:.4f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


@report.command("training")
@click.option(
    "--run", "run_id", default=None, help="Training run id or its output_dir (default: the newest run)."
)
@click.option(
    "--chart",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the PNG (default output/reports/<run>-training.png).",
)
@warehouse_option
@handle_errors
def training_report(run_id: str | None, chart: Path | None, warehouse: Path | None) -> None:
    """A training run's curves: its summary (steps, first/last loss, tokens/s), per GSPO iteration
    the mean reward, zero-variance groups and clip fractions, its held-out evaluations (eval_tuples),
    and a PNG (SFT: loss and learning rate per step; GSPO: loss, mean reward, clip fractions and mean
    |advantage| per iteration; both: held-out success and mean reward).

    Example:

        cuagym report training --run sft-3f2a9c1d0b7e

        cuagym report training --run var/learn/gspo --chart output/reports/learn-gspo.png
    """
    from infra.settings import get_settings
    from training.report import select_run, training_chart, training_evals, training_runs, training_steps

    settings = get_settings()
    path = warehouse or settings.warehouse_path
    runs = training_runs(path)
    if not runs:
        console.print("no training runs in the warehouse yet (start one with `cuagym train sft|gspo`)")
        return
    run = select_run(runs, run_id)
    steps = training_steps(path, run["run_id"])
    evals = training_evals(path, run["run_id"])
    Console().print(_training_summary(run))
    if run["kind"] == "gspo":
        Console().print(_gspo_iterations(steps))
    if evals:
        Console().print(evaluations_table(run["run_id"], evals))
    target = chart or settings.output_dir / "reports" / f"{run['run_id']}-training.png"
    console.print(f"training chart: {training_chart(run, steps, target, evals).path}")
