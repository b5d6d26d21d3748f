"""`cuagym sql | verify | scan | export | lake-sync`: look at, re-check, re-export and share what the
factory made."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.options import warehouse_option
from infra.errors import ConfigError


@click.command()
@click.argument("query")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True
)
@warehouse_option
@handle_errors
def sql(query: str, fmt: str, warehouse: Path | None) -> None:
    """Run a read-only SQL QUERY against the warehouse snapshot.

    QUERY must be one SELECT (WITH, DESCRIBE, SHOW and SUMMARIZE too); writes, ATTACH, COPY,
    EXPORT, SET/PRAGMA, INSTALL/LOAD, CALL and file access are refused (exit 1). Works while a synthesis run is writing: readers use a snapshot refreshed after each tuple,
    so they never block the writer.

    Example:

        cuagym sql "SELECT status, count(*) FROM tuple_status GROUP BY ALL"
    """
    from infra.settings import get_settings
    from warehouse.query import run_query

    result = run_query(warehouse or get_settings().warehouse_path, query)
    if fmt == "json":
        rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
        click.echo(json.dumps(rows, default=str, indent=2))
    elif fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(result.columns)
        writer.writerows(result.rows)
    else:
        table = Table(show_lines=False)
        for col in result.columns:
            table.add_column(col, overflow="fold")
        for row in result.rows:
            table.add_row(*["" if v is None else str(v) for v in row])
        Console().print(table)  # results to stdout; counts and errors to stderr
        console.print(f"{len(result.rows)} row(s)")


@click.command()
@click.argument(
    "bundles",
    nargs=-1,
    required=True,
    type=click.Path(file_okay=False),  # str: s3:// URLs too
)
@click.option(
    "--mutants",
    default=0,
    show_default=True,
    type=click.IntRange(0, 64),
    help="Also run mutation testing with up to N partial-revert mutants (plus corruption mutants).",
)
@handle_errors
def verify(bundles: tuple[str, ...], mutants: int) -> None:
    """Re-check BUNDLE dirs from their own files in fresh sandboxes.

    initial_setup.py alone must score 0.0; initial_setup.py then golden_patch.py must score 1.0;
    with --mutants N, no mutant of the golden state (part of the task undone, or damaged) may score
    1.0. Exits 1 if any bundle fails. An s3://bucket/prefix (of one bundle, or above several) is
    downloaded to a temporary folder first, each file checked against the manifest it was published with.

    Example:

        cuagym verify output/final/* --mutants 8

        cuagym verify s3://my-bucket/runs/final
    """
    import tempfile

    from tasks.publish import resolve_bundles

    with tempfile.TemporaryDirectory(prefix="cuagym-verify-") as scratch:
        _verify(resolve_bundles(list(bundles), Path(scratch)), mutants)


def _verify(bundles: list[Path], mutants: int) -> None:
    from rich.progress import track

    from infra.settings import get_settings
    from tasks.verify import verify_bundles

    table = Table(title="bundle verification")
    for col in ("task", "initial", "golden", *(["mutants killed"] if mutants else []), "result"):
        table.add_column(col)
    failed = 0
    checks = verify_bundles(list(bundles), get_settings(), mutants=mutants)
    for check in track(checks, total=len(bundles), description="verify", console=console):
        failed += not check.ok
        m = check.mutation
        killed = [f"{m.killed}/{m.total}" if m else "n/a"] if mutants else []
        table.add_row(
            check.task_id,
            str(check.reward_initial),
            str(check.reward_golden),
            *killed,
            "[green]ok[/]" if check.ok else f"[red]{'; '.join(check.problems)}[/]",
        )
    console.print(table)
    console.print(f"{len(bundles) - failed}/{len(bundles)} bundles verified")
    sys.exit(1 if failed else 0)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@handle_errors
def scan(paths: tuple[Path, ...]) -> None:
    """Statically scan reward.py files (or bundle dirs) for forbidden patterns.

    Exits 1 if any forbidden pattern is found, 0 when every file is clean.

    Example:

        cuagym scan output/final/*/reward.py
    """
    from tasks.scan import scan_path

    files = [p / "reward.py" if p.is_dir() else p for p in paths]
    if missing := [str(f) for f in files if not f.is_file()]:
        raise ConfigError(
            f"no reward.py in {', '.join(missing[:3])}", hint="pass reward.py files or bundle dirs"
        )
    table = Table(title="reward scan")
    for col in ("file", "line", "rule", "message"):
        table.add_column(col, overflow="fold")
    dirty = 0
    for file in files:
        findings = scan_path(file)
        dirty += bool(findings)
        for f in findings:
            table.add_row(str(file), str(f.line), f.rule, f.message)
    if dirty:
        console.print(table)
    console.print(f"{len(files) - dirty}/{len(files)} file(s) clean")
    sys.exit(1 if dirty else 0)


@click.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output dir (default ./output).",
)
@handle_errors
def export(out: Path | None) -> None:
    """Re-export every verified tuple in the warehouse as a bundle, plus the Parquet of all tuples.

    Example:

        cuagym export --out /data/cuagym
    """
    from infra.settings import get_settings
    from tasks.synthesize import reexport_all
    from warehouse.store import Warehouse

    settings = get_settings()
    target = (out or settings.output_dir).resolve()
    warehouse = Warehouse(settings.warehouse_path)
    bundles = reexport_all(warehouse, target / "final")
    rows = warehouse.export_parquet(target / "tuples.parquet")
    warehouse.refresh_snapshot(force=True)
    table = Table(title="export")
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_column("where")
    table.add_row("bundles", str(len(bundles)), str(target / "final"))
    table.add_row("parquet rows", str(rows), str(target / "tuples.parquet"))
    console.print(table)


@click.command("lake-sync")
@click.option(
    "--catalog",
    envvar="CUAGYM_LAKE_CATALOG",
    required=True,
    help="The lake's catalog: postgresql://user:password@host:port/db, or a path ending in .ducklake "
    "(env CUAGYM_LAKE_CATALOG).",
)
@click.option(
    "--data",
    "data_path",
    envvar="CUAGYM_LAKE_DATA",
    required=True,
    help="Where its Parquet goes: s3://bucket/prefix or a folder (env CUAGYM_LAKE_DATA).",
)
@warehouse_option
@handle_errors
def lake_sync(catalog: str, data_path: str, warehouse: Path | None) -> None:
    """Copy what is new or changed in this machine's warehouse into a shared DuckLake, in one commit.

    Many machines may sync into the same lake at once (a PostgreSQL catalog takes their commits in
    turn); re-running sends nothing that is already there.

    Example:

        cuagym lake-sync --catalog postgresql://lake:secret@db:5432/lake --data s3://cuagym-lake/warehouse
    """
    import time

    from infra.settings import get_settings
    from warehouse.lake import LakeConfig, sync_to_lake

    started = time.monotonic()
    with console.status("syncing the warehouse into the lake"):
        synced = sync_to_lake(warehouse or get_settings().warehouse_path, LakeConfig(catalog, data_path))
    table = Table(title=f"lake sync: {data_path} ({time.monotonic() - started:.1f} s)")
    for column in ("table", "rows written", "older versions replaced"):
        table.add_column(column, justify="left" if column == "table" else "right")
    for row in synced:
        if row.written:
            table.add_row(row.table, str(row.written), str(row.replaced))
    table.add_row("all tables", str(sum(r.written for r in synced)), str(sum(r.replaced for r in synced)))
    console.print(table)
