"""The `cuagym` command line: argument parsing and output only; every command calls a library
function and turns `CuagymError` into a message, a hint and a non-zero exit (tracebacks are kept
for anything else, because those are bugs)."""

from __future__ import annotations

import functools
import logging
import os
import sys

import click
from rich.console import Console

from infra.errors import CuagymError

console = Console(stderr=True)


class ExpectedErrorsInOneLine(logging.Filter):
    """Log records of an expected, typed failure (a CuagymError, e.g. a task re-raised by Prefect's
    engine) as one line without a traceback: the command ends with `error:`/`hint:` anyway.
    Tracebacks stay for everything else, because those are bugs."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, CuagymError):
            record.exc_info = None
            record.exc_text = None
            record.msg, record.args = "%s", (record.getMessage().splitlines()[0],)
        return True


def handle_errors(fn):
    """Print a CuagymError as `error: … / hint: …` and exit 1 instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CuagymError as exc:
            console.print(f"[bold red]error:[/] {exc.message}")
            console.print(f"[yellow]hint:[/] {exc.hint}")
            sys.exit(1)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="-v for INFO logs, -vv for DEBUG.")
def main(verbose: int) -> None:
    """cuagym: a data factory for verified computer-use-agent tasks.

    Example:

        cuagym synth --count 20
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    level = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    handler = logging.StreamHandler()
    # The handler's level, not the root's, is what filters records propagated from child loggers
    # (Prefect's run loggers are at INFO and would otherwise print every task run).
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(ExpectedErrorsInOneLine())
    logging.getLogger().addHandler(handler)


@main.command()
@click.option("--quiet", is_flag=True, help="Print nothing when everything is already in place.")
@handle_errors
def setup(quiet: bool) -> None:
    """Build the guest Python (the libraries generated scripts may use) if it is missing.

    Example:

        cuagym setup
    """
    from infra.guest import ensure_guest_python, guest_python_ready
    from infra.sandbox import bwrap_path
    from infra.settings import get_settings

    bwrap_path()
    venv = get_settings().guest_venv_path
    was_ready = guest_python_ready(venv)
    ensure_guest_python(venv)
    if not (quiet and was_ready):
        console.print(f"guest Python ready at {venv}")


# Sub-command groups live in flows/cli_<name>.py, one module per group.
from flows.cli_data import export, scan, sql, verify  # noqa: E402
from flows.cli_desktop import desktop  # noqa: E402
from flows.cli_env import env  # noqa: E402
from flows.cli_hub import hub  # noqa: E402
from flows.cli_report import report  # noqa: E402
from flows.cli_synth import retry, serve, synth  # noqa: E402

for command in (synth, retry, serve, env, hub, sql, verify, scan, export):
    main.add_command(command)
main.add_command(report)
main.add_command(desktop)

if __name__ == "__main__":
    main()
