"""`cuagym setup`: build the guest Python."""

from __future__ import annotations

import click

from flows.cli.console import console, handle_errors


@click.command()
@click.option("--quiet", is_flag=True, help="Print nothing when everything is already in place.")
@click.option(
    "--local-model",
    "local_models",
    multiple=True,
    help="Also fetch and convert this local LLM into var/models (repeatable; see `synth --local-model`).",
)
@handle_errors
def setup(quiet: bool, local_models: tuple[str, ...]) -> None:
    """Build the guest Python (the libraries generated scripts may use) if it is missing, and the
    local models asked for.

    Example:

        cuagym setup --local-model smollm2-135m
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
    from infra.local_model import is_prepared, prepare

    for name in local_models:
        was_ready = is_prepared(name, get_settings().models_dir)
        with console.status(f"preparing {name}: download and conversion, about a minute"):
            checkpoint = prepare(name, get_settings().models_dir)
        if not (quiet and was_ready):
            console.print(f"local model {name} ready at {checkpoint}")
