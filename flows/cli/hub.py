"""`cuagym hub …`: run the mock web apps (infra/hub) that web tasks are built on."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import click
from rich.table import Table

from flows.cli.console import console, handle_errors
from infra.errors import ConfigError
from infra.hub.settings import ALL_APPS, HubSettings


@click.group()
def hub() -> None:
    """Run the mock web apps and their state API."""


@hub.command("serve")
@click.option(
    "--apps",
    default=None,
    metavar="NAMES",
    help=f"Comma-separated apps to host (default: all of {', '.join(ALL_APPS)}).",
)
@click.option("--host", default=None, help="Interface to bind (default 127.0.0.1, or CUAGYM_HUB_HOST).")
@click.option("--port", type=int, default=None, help="TCP port (default 8400, or CUAGYM_HUB_PORT).")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where sessions and uploads persist (default var/hub, or CUAGYM_HUB_DATA_DIR).",
)
@click.option(
    "--ttl", "ttl_s", type=float, default=None, help="Idle seconds before a session expires (default 3600)."
)
@handle_errors
def serve(
    apps: str | None, host: str | None, port: int | None, data_dir: Path | None, ttl_s: float | None
) -> None:
    """Serve the mock apps, one URL prefix per app, until Ctrl-C.

    Prints each app's URL; open it with `?sid=<session id>` (each sid is an isolated state).
    Options override the CUAGYM_HUB_* environment variables.

    Example:

        cuagym hub serve --apps chat,mail --port 8400
    """
    import uvicorn

    from infra.hub import create_app

    overrides = {"apps": apps, "host": host, "port": port, "data_dir": data_dir, "session_ttl_s": ttl_s}
    settings = HubSettings(**{k: v for k, v in overrides.items() if v is not None})
    _check_port_free(settings.host, settings.port)
    app = create_app(settings)
    table = Table(title="cuagym hub", show_edge=False)
    table.add_column("app")
    table.add_column("url")
    base = f"http://{settings.host}:{settings.port}"
    for name in settings.apps:
        table.add_row(name, f"{base}/{name}/?sid=default")
    console.print(table)
    console.print(f"state API: {base}/<app>/{{post,go,state,upload}}?sid=S   data: {settings.data_dir}")
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")


def _check_port_free(host: str, port: int) -> None:
    # uvicorn reports a busy port as a log line and exit 1; say which port and what to do instead.
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ConfigError(
                    f"port {port} on {host} is already in use",
                    hint=f"pass --port {port + 1}, or stop the other server",
                ) from None
            raise ConfigError(
                f"cannot bind {host}:{port}: {exc.strerror}",
                hint="check --host (an address of this machine) and --port",
            ) from None


@hub.command("docs")
@click.argument("apps", nargs=-1, metavar="[APP]...")
@click.option("--check", is_flag=True, help="Write nothing; fail if a document is out of date.")
@handle_errors
def docs(apps: tuple[str, ...], check: bool) -> None:
    """Write an engine app's SCHEMA.md and SKILL.md from its definition.

    SCHEMA.md goes beside the definition, SKILL.md in skills/<app>/ (its "App notes" section, the
    app's own knowledge, is kept). Without APP: every engine app.

    Example:

        cuagym hub docs deskly
    """
    from infra.hub.engine.docs_files import engine_apps, write_docs

    names = apps or engine_apps()
    table = Table(title="engine app documents", show_edge=False)
    for column in ("app", "document", "state"):
        table.add_column(column)
    stale = []
    for name in names:
        for path, state in write_docs(name, check=check):
            table.add_row(name, str(path), state)
            stale += [path] if state == "stale" else []
    console.print(table)
    if stale:
        raise ConfigError(
            f"{len(stale)} document(s) out of date", hint="run `cuagym hub docs` and commit them"
        )


@hub.command("synth-app")
@click.option(
    "--like",
    "description",
    required=True,
    help='What the app is, e.g. "a help desk with tickets, SLAs and macros".',
)
@click.option(
    "--backend",
    type=click.Choice(["procedural", "llm"]),
    default="procedural",
    show_default=True,
    help="procedural: composed from archetypes and entity pools (no model); llm: written by a model.",
)
@click.option("--name", default=None, help="The app's URL name (default: from its generated brand).")
@click.option("--seed", type=int, default=0, show_default=True, help="Procedural backend: which composition.")
@click.option(
    "--rounds", type=click.IntRange(1, 5), default=5, show_default=True, help="LLM backend: most rounds."
)
@click.option(
    "--model", default=None, help="LLM backend: litellm model of both roles (or CUAGYM_LLM_* / --llm-config)."
)
@click.option("--api-base", default=None, help="LLM backend: an OpenAI-compatible server's URL.")
@click.option(
    "--llm-config",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Per-role LLM settings file.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where accepted apps go (default var/apps; the hub hosts apps from there).",
)
@handle_errors
def synth_app(
    description: str,
    backend: str,
    name: str | None,
    seed: int,
    rounds: int,
    model: str | None,
    api_base: str | None,
    llm_config: Path | None,
    out: Path | None,
) -> None:
    """Synthesize a new web app definition from a short description, and accept it only when it
    validates, the state contract holds on it and a real Chromium renders every view.

    Writes <out>/<name>/ (definition.yaml, SCHEMA.md, synthesis.json with every round, a screenshot
    per view). Exits 1 when no round was accepted, with each round's problems.

    Example:

        cuagym hub synth-app --like "a help desk with tickets, SLAs and macros"
        cuagym hub synth-app --like "a clinic's appointment book" --backend llm --model openai/gpt-4o
    """
    from infra.settings import get_settings
    from tasks.app_synthesis import save_app, synthesize_procedural, write_with_llm

    out = out or get_settings().var_dir / "apps"
    shots = out / "_screenshots"
    with console.status(f"synthesizing an app like {description!r} ({backend})"):
        if backend == "procedural":
            result = synthesize_procedural(description, seed=seed, name=name, screenshot_dir=shots)
        else:
            writer, reviewer = _app_llm_clients(model, api_base, llm_config)
            result = write_with_llm(
                writer, description, name=name, rounds=rounds, reviewer=reviewer, screenshot_dir=shots
            )
    table = Table(title=f"synth-app: {description}", show_edge=False)
    for column in ("round", "validates", "state contract", "renders in Chromium", "review", "problems"):
        table.add_column(column)
    for r in result.rounds:
        table.add_row(
            str(r.number),
            *(r.checks.get(c, "not run") for c in ("validates", "state contract", "renders in Chromium")),
            r.review,
            "; ".join(r.problems)[:300] or "-",
        )
    console.print(table)
    if not result.accepted:
        raise ConfigError(
            f"no definition was accepted in {len(result.rounds)} round(s)",
            hint="read each round's problems above; a clearer --like, another --seed or a stronger model helps",
        )
    folder = save_app(result, description, out, backend)
    d = result.definition
    console.print(
        f"accepted [bold]{d.name}[/] ({d.title}): {len(d.entities)} entities, {len(d.views)} views "
        f"({', '.join(sorted({v.archetype.value for v in d.views}))}), {len(d.actions)} actions -> {folder}"
    )
    console.print(f"serve it: cuagym hub serve --apps {d.name}   (open /{d.name}/?sid=S)")


def _app_llm_clients(model: str | None, api_base: str | None, llm_config: Path | None):
    from infra.llm import LLMClient
    from infra.llm_config import resolve_llm_settings

    settings = resolve_llm_settings(flags={"model": model, "api_base": api_base}, config_path=llm_config)
    writer = LLMClient(settings.role("app_writer"))
    reviewer = LLMClient(settings.roles["app_reviewer"]) if "app_reviewer" in settings.roles else None
    return writer, reviewer
