"""`cuagym env …`: run scripts in a sandboxed env by hand (how people debug a tuple)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from flows.cli.console import console, handle_errors
from infra.envs.local import SCRIPTS_DIR
from infra.guest_python import require_guest_python
from infra.sandbox import Bind, Isolation, Limits, run_in_sandbox
from infra.settings import get_settings, private_dir


@click.group()
def env() -> None:
    """Run scripts in the local sandbox."""


@env.command("run")
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--home",
    "home",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Host directory mounted as /home/user (created if missing).",
)
@click.option("--timeout", "timeout_s", default=120.0, show_default=True, help="Wall-clock seconds.")
@click.option("--memory", "memory_mb", default=2048, show_default=True, help="Memory cap in MB.")
@click.option(
    "--isolation",
    type=click.Choice([i.value for i in Isolation]),
    default="bwrap",
    show_default=True,
    help="`none` runs on the host, for debugging only.",
)
@click.option("--env", "env_vars", multiple=True, metavar="KEY=VALUE", help="Variable to set inside.")
@handle_errors
def run(
    script: Path, home: Path, timeout_s: float, memory_mb: int, isolation: str, env_vars: tuple[str, ...]
):
    """Run one Python SCRIPT in a sandbox whose /home/user is --home.

    Passes the script's stdout and stderr through and exits with its exit code
    (124 on timeout, 137 when killed for memory).

    Example:

        cuagym env run output/final/<task>/initial_setup.py --home /tmp/h
    """
    mode = Isolation(isolation)
    if mode is Isolation.NONE:
        console.print(
            "[bold red]WARNING:[/] --isolation none: the script runs on the host with your permissions"
        )
    settings = get_settings()
    guest = require_guest_python(settings.guest_venv_path)
    home = home.resolve()
    variables = dict(item.split("=", 1) for item in env_vars if "=" in item)
    private_dir(settings.var_dir)
    with tempfile.TemporaryDirectory(dir=settings.var_dir, prefix="env-run-") as scripts:
        # The script is bound read-only beside the home, not copied into it (it is not task state).
        staged = Path(scripts) / script.name
        staged.write_bytes(script.read_bytes())
        argv = ["python3", f"{SCRIPTS_DIR}/{script.name}" if mode is Isolation.BWRAP else str(staged)]
        result = run_in_sandbox(
            argv,
            home=home,
            limits=Limits(timeout_s=timeout_s, memory_mb=memory_mb),
            env=variables,
            binds=[Bind(Path(scripts), SCRIPTS_DIR)],
            guest_python=guest,
            # Under var/, never beside the --home the user named (its parent is not ours to write).
            identity_dir=settings.var_dir / "sandbox-identity",
            isolation=mode,
        )
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    notes = []
    if result.timed_out:
        notes.append(f"timed out after {timeout_s:g} s")
    if result.killed_for_memory:
        notes.append(f"killed for memory (cap {memory_mb} MB)")
    if result.truncated:
        notes.append("output truncated")
    if notes:
        console.print(f"[yellow]cuagym:[/] {'; '.join(notes)}")
    sys.exit(result.exit_code)
