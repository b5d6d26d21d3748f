"""`cuagym setup`: build the guest Python."""

from __future__ import annotations

import click

from flows.cli.console import console, handle_errors


@click.command()
@click.option("--quiet", is_flag=True, help="Print nothing when everything is already in place.")
@handle_errors
def setup(quiet: bool) -> None:
    """Build the guest Python (the libraries generated scripts may use) if it is missing.

    Example:

        cuagym setup
    """
    from infra.guest_python import ensure_guest_python, guest_python_ready
    from infra.sandbox import bwrap_path
    from infra.settings import get_settings

    bwrap_path()
    venv = get_settings().guest_venv_path
    was_ready = guest_python_ready(venv)
    ensure_guest_python(venv)
    if not (quiet and was_ready):
        console.print(f"guest Python ready at {venv}")
