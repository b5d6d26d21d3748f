"""Rich tables shared by the commands that report on a run (synth, retry, report)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table


def coverage_table(rows: list[dict], dimensions=("app", "difficulty", "scope", "domain")) -> Table:
    table = Table(title="coverage of this batch against quotas")
    for col in ("dimension", "value", "specs", "verified", "share", "quota", "ok"):
        table.add_column(col, justify="left" if col in ("dimension", "value") else "right")
    for row in rows:
        if row["dimension"] not in dimensions:
            continue
        quota = (
            ""
            if row["quota_effective"] is None
            else f"{'≤' if row['bound'] == 'max' else '≥'} {row['quota_effective']:.2f}"
        )
        ok = "" if row["within_quota"] is None else ("[green]yes[/]" if row["within_quota"] else "[red]NO[/]")
        table.add_row(
            row["dimension"],
            str(row["value"]),
            str(row["specs"]),
            str(row["verified"]),
            f"{row['share']:.2f}",
            quota,
            ok,
        )
    return table


def print_quota_notes(console: Console, notes: list[dict]) -> None:
    from tasks.quotas import quota_value

    for note in notes:
        if not note["feasible"]:
            quota = note["quota"]
            console.print(
                f"[yellow]quota {quota}={quota_value(quota, note['asked'])} infeasible:[/] {note['why']}; "
                f"enforced {quota_value(quota, note['effective'])} instead"
            )


def print_checks(console: Console, total: int, failed: list[str]) -> None:
    if not total:
        return
    if failed:
        console.print(f"[red]data checks: {len(failed)} of {total} failed:[/] {', '.join(failed)}")
    else:
        console.print(
            f"data checks: [green]{total}/{total} passed[/] (great-expectations suites on tuples and exports)"
        )


def print_chart(console: Console, chart: str | None) -> None:
    if chart:
        console.print(f"coverage chart: {Path(chart)}")


def evaluations_table(run_id: str, evaluations: list[dict]) -> Table:
    """A training run's held-out evaluations (training_evals rows), the first one before training."""
    table = Table(title=f"held-out evaluation {run_id}")
    for col in ("step", "iteration", "episodes", "successes", "success rate", "mean reward", "seconds"):
        table.add_column(col, justify="right")
    for e in evaluations:
        rate, mean = e["success_rate"], e["reward_mean"]
        table.add_row(
            str(e["step"]), "-" if e["iteration"] is None else str(e["iteration"]),
            str(e["episodes"]), f"{e['successes']}/{e['scored']}",
            "-" if rate is None else f"{rate:.0%}", "-" if mean is None else f"{mean:.3f}", f"{e['seconds']:.1f}",
        )  # fmt: skip
    return table
