"""The `cuagym` command line: argument parsing and output only. Every command calls a library
function; one module per area (data, desktop, env, hub, report, rollout, server, synth, setup, train, vm), sharing
flows/cli/console.py. `python -m flows.cli` and the `cuagym` console script are the same program."""

from __future__ import annotations

import click

from flows.cli.console import configure_logging
from flows.cli.data import export, lake_sync, scan, sql, verify
from flows.cli.decontam import contamination_report
from flows.cli.desktop import desktop
from flows.cli.env import env
from flows.cli.hub import hub
from flows.cli.quality import quality, quality_report
from flows.cli.report import report
from flows.cli.rollout import rollout
from flows.cli.server import server
from flows.cli.setup import setup
from flows.cli.synth import retry, serve, synth
from flows.cli.train import train
from flows.cli.vm import vm
from infra.library_env import apply_library_defaults
from infra.lifetime import reap_when_gone

# Commands whose helpers (hub, Prefect's API server, workers, desktops, sandboxes) must all end when
# the command does, however it ends (infra/lifetime.py). `server` and `vm` start services that are
# meant to outlive them (stopped by `cuagym server stop` and by their owners).
REAPED = {"synth", "retry", "serve", "quality", "rollout", "train", "verify", "env", "hub", "desktop"}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="-v for INFO logs, -vv for DEBUG.")
@click.pass_context
def main(ctx: click.Context, verbose: int) -> None:
    """cuagym: a data factory for verified computer-use-agent tasks.

    Example:

        cuagym synth --count 20
    """
    apply_library_defaults()
    configure_logging(verbose)
    if ctx.invoked_subcommand in REAPED and not ctx.resilient_parsing:
        reap_when_gone()


for command in (
    setup,
    synth,
    retry,
    serve,
    server,
    rollout,
    quality,
    train,
    env,
    hub,
    sql,
    verify,
    scan,
    export,
    lake_sync,
    report,
    desktop,
    vm,
):
    main.add_command(command)
report.add_command(quality_report)  # `cuagym report quality`: the quality flow's view
report.add_command(contamination_report)  # `cuagym report contamination`: the decontamination stage
