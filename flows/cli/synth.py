"""`cuagym synth`: run the synthesis flow with a progress bar and a summary table."""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from flows.cli.console import console, handle_errors
from flows.cli.local_llm import local_model_option, print_llm_usage, serving
from flows.cli.options import (
    decontaminate_option,
    llm_options,
    mutation_options,
    runner_options,
    teacher_options,
)
from infra.errors import ConfigError


def known_families(ids: list[str]) -> list[str]:
    """`ids` when every one is a family of the catalogue; a ConfigError naming the others, before a
    run starts (the sampler checks again for deployments, which skip the CLI)."""
    if not ids:
        return ids
    from infra.settings import get_settings
    from skills.kit import load_families

    catalogue = load_families(get_settings().skills_dir)
    if unknown := sorted(set(ids) - set(catalogue)):
        app_ids = sorted(f for f in catalogue if f.split(".")[0] in {i.split(".")[0] for i in unknown})
        raise ConfigError(
            f"unknown family id(s) {unknown}",
            hint=f"families of those apps: {', '.join(app_ids) or 'none'}; every id: skills/<app>/families/",
        )
    return ids


def known_apps(apps: list[str]) -> list[str]:
    """`apps` when every one is a known app; a ConfigError naming the others (the params models would
    reject them too, with a traceback instead of a hint)."""
    from tasks.models import KNOWN_APPS

    if unknown := sorted(set(apps) - set(KNOWN_APPS)):
        raise ConfigError(f"unknown app(s) {unknown}", hint=f"known apps: {', '.join(KNOWN_APPS)}")
    return apps


class _ProgressHandler(logging.Handler):
    """Moves a rich progress bar on the `tasks.progress` events the flow emits."""

    def __init__(self, progress: Progress) -> None:
        super().__init__(level=logging.INFO)
        self.progress = progress
        self.bar = None
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        event = getattr(record, "cuagym_progress", None)
        if not event or event.get("kind") != "tuples":
            return
        if self.bar is None:
            self.bar = self.progress.add_task("tuples", total=event["total"], status="")
        if event.get("status"):
            self.counts[event["status"]] += 1
        status = " ".join(f"{k}={v}" for k, v in sorted(self.counts.items()))
        self.progress.update(self.bar, completed=event["done"], total=event["total"], status=status)


def quiet_prefect_console(verbose: bool) -> None:
    """Prefect's console logs every task run; the bar replaces them unless -v (the UI keeps them)."""
    if not verbose:
        os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "WARNING")


@click.command()
@click.option("--count", default=20, show_default=True, help="Tasks to sample in this run.")
@click.option("--apps", default="", help="Comma-separated apps to restrict to (default: all).")
@click.option(
    "--families",
    default="",
    help="Comma-separated family ids to restrict to, e.g. files.bin_scripts (default: all of --apps).",
)
@click.option("--backend", default="procedural", show_default=True, help="Agent backend.")
@click.option("--workers", default=2, show_default=True, help="Tuples processed concurrently.")
@click.option("--seed", type=int, default=None, help="Sampling seed (default: today's date).")
@click.option("--max-rounds", default=5, show_default=True, help="Co-generation rounds per tuple.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),  # a str: Path() would fold the // of s3://
    default=None,
    help="Output dir for bundles and Parquet, or s3://bucket/prefix (default ./output).",
)
@click.option("--no-export", is_flag=True, help="Verify only; write no bundles.")
@click.option(
    "--until-verified",
    "verified_budget",
    type=int,
    default=None,
    help="Sample batches of --count until this many tuples are verified and every app has its minimum.",
)
@click.option(
    "--max-batches", default=10, show_default=True, help="Upper bound on batches with --until-verified."
)
@decontaminate_option
@runner_options
@mutation_options
@teacher_options
@llm_options
@local_model_option
@click.pass_context
@handle_errors
def synth(
    ctx,
    count,
    apps,
    families,
    backend,
    workers,
    runner,
    dask_address,
    seed,
    max_rounds,
    out,
    no_export,
    verified_budget,
    max_batches,
    decontaminate,
    mutants,
    corruption_mutants,
    teacher_k,
    teacher_limit,
    teacher_model,
    teacher_max_steps,
    local_model,
    **llm,
):
    """Synthesise verified tuples: sample, co-generate, scan, export, then roll out the exported ones
    with their GUI teachers on real desktops (the teacher stage).

    Re-running with the same parameters resumes the run: finished tuples are read back from the
    warehouse, not recomputed.

    Example:

        cuagym synth --count 20 --apps calc,writer --workers 2

        cuagym synth --count 8 --families files.bin_scripts --seed 1

        cuagym synth --count 200 --runner dask --dask-address tcp://scheduler:8786 --workers 32

        cuagym synth --backend llm --model hosted_vllm/Qwen3-32B --api-base http://gpu:8000/v1

        cuagym synth --count 20 --decontaminate ~/OSWorld --decontaminate webarena.jsonl

        cuagym synth --local-model smollm2-135m --count 3 --apps files --critics 1
    """
    verbose = (ctx.find_root().params.get("verbose") or 0) > 0
    quiet_prefect_console(verbose)
    from flows.synthesis import synthesis_flow
    from tasks.models import SynthParams

    params = SynthParams(
        count=count,
        apps=known_apps([a.strip() for a in apps.split(",") if a.strip()]),
        families=known_families([f.strip() for f in families.split(",") if f.strip()]),
        backend="llm" if local_model else backend,
        workers=workers,
        runner=runner,
        dask_address=dask_address,
        seed=seed,
        max_rounds=max_rounds,
        out=str(out) if out else None,
        export=not no_export,
        verified_budget=verified_budget,
        max_batches=max_batches,
        mutants=mutants,
        corruption_mutants=corruption_mutants,
        teacher_k=teacher_k,
        teacher_limit=teacher_limit,
        teacher_model=teacher_model,
        teacher_max_steps=teacher_max_steps,
        decontaminate=[str(p.resolve()) for p in decontaminate],
        **llm,
    )
    from tasks.decontam.stage import check_sets
    from tasks.publish import check_output

    check_output(params.out)  # a wrong bucket or key fails now, not after the run
    check_sets(params.decontaminate)  # a missing or malformed benchmark set too
    with serving(local_model, llm) as served:  # after the checks: a bad option starts no model server
        params = params.model_copy(update=served)
        summary = with_progress(lambda: synthesis_flow(params))
    print_summary(summary)
    print_published(out)
    if local_model:
        print_llm_usage(summary)
    exit_if_failed(summary)


def exit_if_failed(summary) -> None:
    """Exit 1 when any part of the run failed: a tuple the pipeline itself failed on, or a data check.
    (A rejected tuple is a result, not a failure.)"""
    broken = [
        o.task_id for o in summary.outcomes if o.reject_reason and o.reject_reason.value == "internal_error"
    ]
    if broken:
        console.print(
            f"[bold red]error:[/] the pipeline failed on {len(broken)} tuple(s): {', '.join(broken[:5])}"
        )
        console.print(
            "[yellow]hint:[/] their tracebacks are in the warehouse: "
            "cuagym sql \"SELECT task_id, error FROM tuples WHERE reject_reason = 'internal_error'\""
        )
    if summary.checks_failed:
        console.print(
            f"[bold red]error:[/] {len(summary.checks_failed)} data check(s) failed: "
            f"{', '.join(summary.checks_failed[:5])}"
        )
        console.print('[yellow]hint:[/] cuagym sql "SELECT * FROM data_checks WHERE NOT success"')
    if broken or summary.checks_failed:
        sys.exit(1)


def with_progress(run, label: str = "tuples"):
    """Run a flow while a rich bar follows its `tasks.progress` events."""
    progress = Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
    )
    handler = _ProgressHandler(progress)
    progress_logger = logging.getLogger("tasks.progress")
    progress_logger.addHandler(handler)
    progress_logger.setLevel(logging.INFO)
    try:
        with progress:
            return run()
    finally:
        progress_logger.removeHandler(handler)


def _print_coverage(summary) -> None:
    from flows.cli.tables import coverage_table, print_chart, print_checks, print_quota_notes
    from tasks.coverage import coverage, quota_notes

    rows = coverage(Path(summary.warehouse), summary.run_id)
    if rows:
        console.print(coverage_table(rows))
        print_quota_notes(console, quota_notes(Path(summary.warehouse), summary.run_id))
    print_checks(console, summary.checks_total, summary.checks_failed)
    print_chart(console, summary.coverage_chart)


def print_summary(summary) -> None:
    from tasks.models import TupleStatus

    table = Table(title=f"synthesis run {summary.run_id}")
    cols = (
        "app",
        "tuples",
        "verified",
        "rejected",
        "contaminated",
        "resumed",
        "rounds (mean)",
        "s/tuple (mean)",
    )
    for col in cols:
        table.add_column(col, justify="right" if col != "app" else "left")
    by_app: dict[str, list] = {}
    for o in summary.outcomes:
        by_app.setdefault("+".join(o.apps), []).append(o)
    for app, items in sorted(by_app.items()) + [("all", summary.outcomes)]:
        ok = sum(o.status in (TupleStatus.VERIFIED, TupleStatus.EXPORTED) for o in items)
        contaminated = sum(o.status is TupleStatus.CONTAMINATED for o in items)
        fresh = [o for o in items if not o.resumed]
        table.add_row(
            app,
            str(len(items)),
            str(ok),
            str(len(items) - ok - contaminated),
            str(contaminated),
            str(len(items) - len(fresh)),
            f"{sum(o.rounds for o in items) / max(len(items), 1):.2f}",
            f"{sum(o.seconds for o in fresh) / max(len(fresh), 1):.2f}" if fresh else "-",
        )
    console.print(table)
    reasons = Counter(o.reject_reason.value for o in summary.outcomes if o.reject_reason)
    if reasons:
        rt = Table(title="rejected by reason")
        rt.add_column("reason")
        rt.add_column("tuples", justify="right")
        for reason, n in reasons.most_common():
            rt.add_row(reason, str(n))
        console.print(rt)
    _print_coverage(summary)
    if summary.teacher is not None:
        print_teacher(summary.teacher)
    console.print(f"bundles:   {Path(summary.output) / 'final'}")
    console.print(f"parquet:   {Path(summary.output) / 'tuples.parquet'}")
    console.print(f'warehouse: {summary.warehouse}  (query: cuagym sql "SELECT * FROM tuple_status")')
    console.print(f"wall time: {summary.seconds:.1f} s")


def print_published(out: str | None) -> None:
    """For an s3:// --out: where the files went (what print_summary shows is the staging folder)."""
    from infra.storage import MANIFEST, is_s3_url

    if is_s3_url(out):
        console.print(f"uploaded:  {out} ({MANIFEST} lists every object with its sha256)")


def print_teacher(teacher) -> None:
    tuples = len(teacher.solved) + len(teacher.failed)
    line = (
        f"teacher:   {len(teacher.solved)}/{tuples} tuples solved through the GUI in {teacher.rollouts} "
        f"rollouts; {teacher.untaught} without a teacher"
    )
    if teacher.disagreements:
        line += f"; [yellow]{len(teacher.disagreements)} reward_judge_disagree[/]"
    console.print(line)
    if teacher.failed:
        console.print(f"           teacher_failed: {', '.join(teacher.failed[:5])}")
    console.print(f"trajectories: {teacher.dataset} (trajectories.jsonl + screenshots-*.tar)")


@click.command()
@click.option("--ids", default="", help="Comma-separated task ids (overrides the filters).")
@click.option("--status", default="rejected", show_default=True, help="Tuples in this status.")
@click.option("--reason", default=None, help="Only this reject reason (e.g. golden_not_full).")
@click.option("--app", default=None, help="Only tuples touching this app.")
@click.option("--limit", default=100, show_default=True)
@click.option("--backend", default="procedural", show_default=True)
@click.option("--workers", default=2, show_default=True)
@decontaminate_option
@runner_options
@mutation_options
@llm_options
@click.pass_context
@handle_errors
def retry(
    ctx,
    ids,
    status,
    reason,
    app,
    limit,
    backend,
    workers,
    decontaminate,
    runner,
    dask_address,
    mutants,
    corruption_mutants,
    **llm,
):
    """Re-run finished tuples as new attempts (old attempts and reviews are kept).

    Example:

        cuagym retry --reason golden_not_full --app calc
    """
    quiet_prefect_console((ctx.find_root().params.get("verbose") or 0) > 0)
    from flows.retry import retry_flow
    from tasks.models import RetryParams

    params = RetryParams(
        task_ids=[i for i in ids.split(",") if i],
        status=status,
        reject_reason=reason,
        app=known_apps([app])[0] if app else None,
        limit=limit,
        backend=backend,
        workers=workers,
        runner=runner,
        dask_address=dask_address,
        mutants=mutants,
        corruption_mutants=corruption_mutants,
        decontaminate=[str(p.resolve()) for p in decontaminate],
        **llm,
    )
    from tasks.decontam.stage import check_sets

    check_sets(params.decontaminate)  # a missing or malformed benchmark set fails before any work
    summary = with_progress(lambda: retry_flow(params))
    print_summary(summary)
    if not summary.outcomes:
        console.print(f"retry run {summary.run_id}: no tuple matched the selection (0 retried)")
    exit_if_failed(summary)


@click.command()
@handle_errors
def serve() -> None:
    """Serve every deployment in prefect.yaml (nightly synthesis, retry) from this process.

    Start `prefect server start` first to get the UI; runs until interrupted.

    Example:

        cuagym serve
    """
    from flows.serve import serve_all

    serve_all()
