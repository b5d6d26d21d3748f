"""`cuagym report contamination`: the decontamination stage's verdicts, per app and family."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.options import warehouse_option


@click.command("contamination")
@click.option("--app", default=None, help="Only tuples touching this app (default: every app).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option(
    "--chart",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the PNG (default output/reports/contamination.png).",
)
@warehouse_option
@handle_errors
def contamination_report(app: str | None, fmt: str, chart: Path | None, warehouse: Path | None) -> None:
    """Tuples checked against the benchmark sets and the share contaminated, per app and family; every
    contaminated tuple with its closest benchmark task and scores; and a PNG chart.

    Example:

        cuagym report contamination --app calc
    """
    from infra.settings import get_settings
    from tasks.decontam.report import contaminated, contamination_by_family, contamination_chart

    settings = get_settings()
    path = warehouse or settings.warehouse_path
    rows = contamination_by_family(path, app)
    found = contaminated(path, app)
    if fmt == "json":
        click.echo(json.dumps({"families": rows, "contaminated": found}, default=str, indent=2))
        return
    if not rows:
        console.print("no tuple has been checked against a benchmark set yet (cuagym synth --decontaminate)")
        return
    table = Table(title="contamination per app and family" + (f" ({app})" if app else ""))
    for col in ("app", "family", "checked", "contaminated", "share", "benchmarks", "max cosine"):
        table.add_column(col, justify="left" if col in ("app", "family", "benchmarks") else "right")
    for r in rows:
        table.add_row(
            r["app"], r["family"], str(r["checked"]), str(r["contaminated"]),
            f"{r['contaminated_share']:.1%}", r["benchmarks"] or "", f"{r['max_embedding']:.3f}",
        )  # fmt: skip
    Console().print(table)
    if found:
        hits = Table(title="contaminated tuples (closest benchmark task)")
        for col in ("tuple", "benchmark", "task", "rule", "3-gram", "cosine", "targets"):
            hits.add_column(col, overflow="fold")
        for r in found:
            hits.add_row(
                r["tuple_id"], r["benchmark"], r["task_id"], r["rule"],
                f"{r['ngram']:.3f}", f"{r['embedding']:.3f}", f"{r['target_overlap']:.3f}",
            )  # fmt: skip
        Console().print(hits)
    checked = sum(r["checked"] for r in rows)
    dirty = sum(r["contaminated"] for r in rows)
    Console().print(f"overall: {dirty}/{checked} tuples contaminated ({dirty / checked:.1%})")
    target = chart or settings.output_dir / "reports" / "contamination.png"
    Console().print(f"chart: {contamination_chart(rows, target)}")
