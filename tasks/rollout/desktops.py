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


def rollout_provider(settings: Settings, hub: HubProcess | None) -> DesktopProvider:
    """Desktops for rollouts; with `hub`, web-app tuples open on its sessions."""
    return DesktopProvider(
        settings.work_dir / "desktops",
        ensure_desktop_python(settings.desktop_venv_path),
        hub=HubRoute(hub.uds, WEB_APPS) if hub else None,
    )
