"""`cuagym server start|stop`: the operator's Prefect server on PostgreSQL, with prefect.yaml's
deployments served by a process worker (infra/server). `make server` and `make server-stop` call these."""

from __future__ import annotations

from pathlib import Path

import click

from flows.cli.console import console, handle_errors
from infra.settings import get_settings

STATE_DIR_HELP = "Where PostgreSQL's data, the logs and server.json live (default var/prefect-server)."


def _stack(state_dir: Path | None, port: int = 4200, pool: str = "cuagym"):
    from infra.server.stack import OperatorServer

    return OperatorServer(state_dir or get_settings().var_dir / "prefect-server", port=port, pool=pool)


@click.group()
def server() -> None:
    """Run a Prefect server (UI and API) on PostgreSQL with a process worker for prefect.yaml."""


@server.command("start")
@click.option("--port", default=4200, show_default=True, help="Port of the UI and the API on 127.0.0.1.")
@click.option("--pool", default="cuagym", show_default=True, help="Process work pool of the deployments.")
@click.option(
    "--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=STATE_DIR_HELP
)
@handle_errors
def start(port: int, pool: str, state_dir: Path | None) -> None:
    """Start PostgreSQL, the Prefect server, prefect.yaml's deployments and a worker, then return.

    They keep running until `cuagym server stop`; running it again while they are up only prints
    where they are. Flow runs write the warehouse and output folder of the CUAGYM_* settings.

    Example:

        cuagym server start --port 4200
    """
    stack = _stack(state_dir, port, pool)
    if (state := stack.running_state()) is not None:
        console.print(f"already running (server pid {state.server.pid}, worker pid {state.worker.pid})")
    else:
        console.print("starting PostgreSQL, the Prefect server and a worker (about a minute)…")
        state = stack.start()
    console.print(f"[bold green]Prefect UI:[/] {state.ui_url}")
    console.print(f"API: {state.api_url} (for the prefect CLI: export PREFECT_API_URL=…)", soft_wrap=True)
    console.print(f"work pool: {state.pool}; logs: {state.server.log.parent}", soft_wrap=True)
    console.print("stop: cuagym server stop")


@server.command("stop")
@click.option(
    "--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=STATE_DIR_HELP
)
@handle_errors
def stop(state_dir: Path | None) -> None:
    """Stop the worker, the Prefect server and PostgreSQL (their data stays for the next start).

    Example:

        cuagym server stop
    """
    stopped = _stack(state_dir).stop()
    console.print("stopped" if stopped else "no server was running")
