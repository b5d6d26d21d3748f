"""`cuagym quality` (the quality flow) and `cuagym report quality` (its view, family by family)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.options import warehouse_option
from flows.cli.synth import quiet_prefect_console, with_progress
from tasks.models import KNOWN_APPS

COLUMNS = (
    "family",
    "seeds",
    "mutants",
    "killed",
    "kill rate",
    "survivors",
    "teacher runs",
    "teacher pass rate",
)


@click.command()
@click.option("--seeds", default=20, show_default=True, type=click.IntRange(1), help="Seeds per family.")
@click.option(
    "--teacher-seeds",
    default=3,
    show_default=True,
    type=click.IntRange(0),
    help="GUI teacher runs per taught family, on its first seeds (0: no teachers).",
)
@click.option("--family", "families", multiple=True, help="Only this family (repeatable; default: all).")
@click.option(
    "--app",
    "apps",
    multiple=True,
    type=click.Choice(KNOWN_APPS),
    help="Only families touching this app (repeatable).",
)
@click.option(
    "--workers", default=2, show_default=True, type=click.IntRange(1, 16), help="Families side by side."
)
@click.option("--seed-base", default=0, show_default=True, type=click.IntRange(0), help="The first seed.")
@click.pass_context
@handle_errors
def quality(ctx, seeds, teacher_seeds, families, apps, workers, seed_base) -> None:
    """Check every family's reward over many seeds: initial 0.0, golden 1.0, each mistake a near
    miss, every mutant killed; and its GUI teacher reaching 1.0 on the first seeds.

    Rows go to the warehouse (table `quality`, view `quality_by_family`). Exits 1 naming every
    family with a surviving mutant, a failed teacher or another problem.

    Example:

        cuagym quality --seeds 20 --teacher-seeds 3 --app calc
    """
    quiet_prefect_console((ctx.find_root().params.get("verbose") or 0) > 0)
    from flows.quality import quality_flow
    from tasks.models import QualityParams

    params = QualityParams(
        seeds=seeds,
        teacher_seeds=teacher_seeds,
        families=list(families),
        apps=list(apps),
        workers=workers,
        seed_base=seed_base,
    )
    summary = with_progress(lambda: quality_flow(params), label="seeds")
    print_quality_summary(summary)
    failed = summary.failed()
    if failed:
        for family in failed:
            problems = family.problems()
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            console.print(f"[bold red]{family.family}:[/] {'; '.join(problems[:3])}{more}")
        console.print(f"[bold red]error:[/] {len(failed)} of {len(summary.families)} families failed quality")
        console.print(
            '[yellow]hint:[/] cuagym sql "SELECT family, seed, survivors, error FROM quality WHERE ..."'
        )
        sys.exit(1)


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def print_quality_summary(summary) -> None:
    table = Table(title=f"quality {summary.run_id}")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col == "family" else "right")
    for f in summary.families:
        survivors = sum(len(s.survivors) for s in f.seeds)
        table.add_row(
            f.family,
            str(len(f.seeds)),
            str(f.mutants),
            str(f.killed),
            _rate(f.kill_rate),
            str(survivors),
            str(f.teacher_runs),
            _rate(f.teacher_pass_rate),
        )
    mutants, killed = sum(f.mutants for f in summary.families), sum(f.killed for f in summary.families)
    runs = sum(f.teacher_runs for f in summary.families)
    passed = sum(f.teacher_passed for f in summary.families)
    table.add_row(
        "all",
        str(sum(len(f.seeds) for f in summary.families)),
        str(mutants),
        str(killed),
        _rate(killed / mutants if mutants else None),
        str(mutants - killed),
        str(runs),
        _rate(passed / runs if runs else None),
    )
    Console().print(table)
    console.print(f"warehouse: {summary.warehouse} (cuagym report quality)")
    console.print(f"wall time: {summary.seconds:.1f} s")


@click.command(name="quality")
@click.option("--app", default=None, help="Only this app's families.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@warehouse_option
@handle_errors
def quality_report(app: str | None, fmt: str, warehouse: Path | None) -> None:
    """Each family's latest quality run: seeds, kill rate, near misses, teacher pass rate; and per app
    (view quality_by_app): families, kill rate, teacher pass rate.

    Example:

        cuagym report quality --app calc
    """
    from infra.settings import get_settings
    from warehouse.reports import quality_report as read_report

    result = read_report(warehouse or get_settings().warehouse_path, app)
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    if fmt == "json":
        click.echo(json.dumps(rows, default=str, indent=2))
        return
    if not rows:
        console.print("no quality run in the warehouse yet (run `cuagym quality`)")
        return
    table = Table(title="quality by family (latest run of each)" + (f" ({app})" if app else ""))
    cols = ("family", "seeds", "mutants", "kill_rate", "survivors", "mistakes_told", "endpoint_failures",
            "errors", "teacher_runs", "teacher_pass_rate")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="left" if col in ("family", "app", "run_id") else "right")
    for row in rows:
        row["mistakes_told"] = f"{row['mistakes_told']}/{row['mistakes']}"
        row["kill_rate"], row["teacher_pass_rate"] = _rate(row["kill_rate"]), _rate(row["teacher_pass_rate"])
        table.add_row(*[str(row[c]) for c in cols])
    Console().print(table)
    Console().print(_apps_table(warehouse or get_settings().warehouse_path, app))
    console.print(f"runs: {', '.join(sorted({r['run_id'] for r in rows}))}")


def _apps_table(warehouse: Path, app: str | None) -> Table:
    from warehouse.reports import quality_by_app

    result = quality_by_app(warehouse, app)
    table = Table(title="quality by app (view quality_by_app)")
    cols = (
        "app",
        "families",
        "seeds",
        "mutants",
        "kill_rate",
        "taught_families",
        "teacher_runs",
        "teacher_pass_rate",
    )
    for col in cols:
        table.add_column(col, justify="left" if col == "app" else "right")
    for values in result.rows:
        row = dict(zip(result.columns, values, strict=True))
        row["kill_rate"], row["teacher_pass_rate"] = _rate(row["kill_rate"]), _rate(row["teacher_pass_rate"])
        table.add_row(*[str(row[c]) for c in cols])
    return table
