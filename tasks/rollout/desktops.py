"""The desktops a rollout runs on, made the same way by every caller: the rollout flow, a Dask
worker (tasks/rollout/worker.py) and GSPO's episode collector (flows/training.py).

`start_rollout_hub` starts a hub of the caller's own for web-app tuples; `rollout_provider` gives
desktops that reach it (or none) through the hub route forwarder."""

from __future__ import annotations

import tempfile
from pathlib import Path

from infra.desktop_venv import ensure_desktop_python
from infra.envs.desktop import DesktopProvider
from infra.envs.local import WEB_APPS, HubRoute
from infra.hub.process import HubProcess
from infra.settings import Settings


def start_rollout_hub(settings: Settings, name: str) -> HubProcess:
    """A started hub with its data under var/hub/<name>; its socket lives under /tmp, because unix
    socket paths are limited to 108 bytes."""
    return HubProcess(
        settings.var_dir / "hub" / name, Path(tempfile.mkdtemp(prefix="cuagym-hub-")) / "hub.sock"
    ).start()


def rollout_provider(settings: Settings, hub: HubProcess | None, env: str = "desktop") -> DesktopProvider:
    """Desktops for rollouts — bubblewrap sandboxes (`desktop`) or containers of the desktop image
    (`docker`, built on first use); with `hub`, web-app tuples open on its sessions."""
    route = HubRoute(hub.uds, WEB_APPS) if hub else None
    python = ensure_desktop_python(settings.desktop_venv_path)
    if env == "docker":
        from infra.envs.docker import DockerProvider, docker_client, ensure_image

        client = docker_client()
        image = ensure_image(client, desktop_python=python)
        return DockerProvider(settings.work_dir / "containers", image=image, client=client, hub=route)
    return DesktopProvider(settings.work_dir / "desktops", python, hub=route)
