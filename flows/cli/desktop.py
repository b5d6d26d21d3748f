"""`cuagym desktop …`: real desktops (Xvfb + openbox + LibreOffice) behind an OSWorld-compatible server."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

import click

from flows.cli.console import console, handle_errors
from infra.errors import ConfigError, DesktopError
from infra.settings import get_settings


@click.group()
def desktop() -> None:
    """Run desktops that OSWorld's controllers (and people) can drive."""


@desktop.command("setup")
@click.option("--quiet", is_flag=True, help="Print nothing when everything is already in place.")
@handle_errors
def setup(quiet: bool) -> None:
    """Build the desktop's Python (server libraries, pyautogui, the guest libraries), install real
    VS Code (code-server and its Node 24, from the npm registry) and build the apps' first-start
    profiles (GIMP's plug-in registry, infra/app_seeds.py; VS Code's browser profile, opened once on a
    desktop, infra/envs/desktop/code_seed.py) if they are missing.

    Example:

        cuagym desktop setup
    """
    from infra.app_seeds import app_seeds_ready, ensure_app_seeds
    from infra.code_server import code_server_ready, ensure_code_server
    from infra.desktop_venv import desktop_python_ready, ensure_desktop_python
    from infra.envs.desktop import DesktopProvider
    from infra.envs.desktop.code_seed import code_seed_ready, ensure_code_seed

    settings = get_settings()
    venv = settings.desktop_venv_path
    was_ready = desktop_python_ready(venv)
    ensure_desktop_python(venv)
    if not (quiet and was_ready):
        console.print(f"desktop Python ready at {venv}")
    code_server = settings.code_server_dir
    was_ready = code_server_ready(code_server)
    ensure_code_server(code_server)
    if not (quiet and was_ready):
        console.print(f"VS Code (code-server) ready at {code_server}")
    seeds = settings.app_seeds_dir
    was_ready = app_seeds_ready(seeds) and code_seed_ready(seeds)
    ensure_app_seeds(seeds)
    ensure_code_seed(DesktopProvider(settings.work_dir / "desktops", venv), seeds)
    if not (quiet and was_ready):
        console.print(f"apps' first-start profiles ready at {seeds}")


@desktop.command("serve")
@click.option(
    "--bundle",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="An exported bundle: run its config.json setup, then open the task's documents.",
)
@click.option("--port", type=int, default=0, show_default=True, help="Loopback TCP port (0: any free one).")
@click.option("--width", type=int, default=1920, show_default=True, help="Screen width in pixels.")
@click.option("--height", type=int, default=1080, show_default=True, help="Screen height in pixels.")
@click.option(
    "--no-accessibility", is_flag=True, help="Skip the AT-SPI bus (GET /accessibility then answers 503)."
)
@click.option(
    "--keep-home", is_flag=True, help="Keep the desktop's folder (home, log) after it stops, for inspection."
)
@handle_errors
def serve(
    bundle: Path | None, port: int, width: int, height: int, no_accessibility: bool, keep_home: bool
) -> None:
    """Start one desktop, print its server URL and a first screenshot's path, and run until Ctrl-C.

    On Ctrl-C the desktop stops and its folder under var/desktops is removed (--keep-home keeps it).

    The server speaks OSWorld's desktop_env protocol on 127.0.0.1 only; every request needs the
    printed token (HTTP Basic password, any user name, or `Authorization: Bearer`). Hand OSWorld's
    controllers the printed vm_ip and port unchanged.

    Example:

        cuagym desktop serve --bundle output/final/calc.padded_ids-0a1b2c3d4e --port 5000
    """
    from infra.desktop_venv import ensure_desktop_python
    from infra.envs.base import EnvRole
    from infra.envs.desktop import DesktopProvider
    from infra.envs.desktop.sandbox import DesktopConfig

    if bundle is not None and not (bundle / "config.json").is_file():
        raise ConfigError(f"{bundle} has no config.json", hint="pass a bundle folder from output/final/")
    settings = get_settings()
    provider = DesktopProvider(
        settings.var_dir / "desktops",
        ensure_desktop_python(settings.desktop_venv_path),
        config=DesktopConfig(width=width, height=height, accessibility=not no_accessibility),
        keep=keep_home,
    )
    started = time.monotonic()
    env = provider.provision(bundle.name if bundle else "serve", EnvRole.DEBUG)
    try:
        opened = env.setup_from_config(bundle / "config.json") if bundle is not None else []
        env.mark_initial()
        url = env.serve_tcp(port=port)
        vm_ip, server_port = env.osworld_address()
        shot = settings.var_dir / "screenshots" / f"desktop-serve-{env.id}.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        shot.write_bytes(env.screenshot())
        lines = [
            f"desktop ready in {time.monotonic() - started:.1f} s ({width}x{height})",
            f"server:     {url}   token: {env.token}",
            f"browser:    http://cuagym:{env.token}@{url.removeprefix('http://')}/screenshot",
            f'osworld:    PythonController(vm_ip="{vm_ip}", server_port={server_port})',
            f"screenshot: {shot}",
            f"home:       {env.home}",
            f"log:        {env.log_path}",
        ]
        lines += [f"opened:     {path}" for path in opened]
        click.echo("\n".join(lines), nl=True)
        sys.stdout.flush()
        console.print("running; Ctrl-C to stop")
        while env.running:
            time.sleep(0.5)
        raise DesktopError(
            f"the desktop exited on its own; its log is {env.log_path}",
            hint="read the log's end; `make setup` installs what a desktop needs",
        )
    except KeyboardInterrupt:
        console.print("stopping")
    finally:
        env.close()
        if keep_home:
            console.print(f"kept {env.root}")
        else:
            with contextlib.suppress(OSError):  # the task's folder, once its last env is gone
                env.root.parent.rmdir()


@desktop.command("image")
@click.option(
    "--keep-engine", is_flag=True, help="Leave a dockerd started for the build running (stop-engine ends it)."
)
@handle_errors
def image(keep_engine: bool) -> None:
    """Build the `docker` provider's desktop image (debootstrap + `docker import` + a Dockerfile).

    Debian's packages come from its mirror (CUAGYM_DEBIAN_MIRROR picks another); no registry is
    used. When no engine answers, a local dockerd is started for the build and stopped after it.
    Unchanged inputs are never rebuilt.

    Example:

        cuagym desktop image
    """
    from infra.envs.docker import docker_client, engine, ensure_image

    started = time.monotonic()
    with (
        console.status("building the desktop image (the first build downloads ~420 MB of packages)"),
        contextlib.nullcontext(docker_client()) if keep_engine else engine() as client,
    ):
        tag = ensure_image(client)
    console.print(f"desktop image {tag} ready ({time.monotonic() - started:.0f} s)")


@desktop.command("stop-engine")
@handle_errors
def stop_engine() -> None:
    """Stop the dockerd (and its containerd) that cuagym started, e.g. for `rollout --env docker`.

    An engine cuagym did not start (a system service) is left alone.

    Example:

        cuagym desktop stop-engine
    """
    from infra.envs.docker import stop_dockerd

    stopped = stop_dockerd()
    if stopped is None:
        console.print("no dockerd started by cuagym is running")
    else:
        console.print(f"stopped dockerd (pid {stopped.pid}) and its containerd")
