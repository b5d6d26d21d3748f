"""What a mock app contributes to the hub, and how the hub finds the apps it was asked to host.

Each package `infra/hub/apps/<name>/` exposes `APP: MockApp`. The hub implements the state API
once (infra/hub/state_api.py); an app only declares its schema, seed, volatile keys, UI files and,
if it needs them, extra routes.
"""

from __future__ import annotations

import importlib

from infra.errors import ConfigError
from infra.hub.engine import app_folder, engine_app, load_definition
from infra.hub.mock_app import MockApp
from infra.hub.settings import ALL_APPS

__all__ = ["MockApp", "load_mock_apps"]


def load_mock_apps(names: list[str] | tuple[str, ...]) -> list[MockApp]:
    """Each named app, in order: built by the app engine from `infra/hub/apps/<name>/definition.yaml`
    where there is one, else `infra.hub.apps.<name>.APP` (a hand-written app). Unknown names raise
    ConfigError."""
    # Declared apps, and apps `cuagym hub synth-app` wrote (a definition in their folder, var/apps).
    unknown = [n for n in names if n not in ALL_APPS and not (app_folder(n) / "definition.yaml").is_file()]
    if unknown:
        raise ConfigError(
            f"unknown hub app(s): {', '.join(unknown)}", hint=f"choose from {', '.join(ALL_APPS)}"
        )
    if len(set(names)) != len(names):
        raise ConfigError(f"hub apps listed twice: {', '.join(names)}", hint="list each app once")
    apps = [_load_app(name) for name in names]
    for app in apps:
        app.validate(app.seed())  # a broken seed is a bug in the app; fail at start, not per request
    return apps


def _load_app(name: str) -> MockApp:
    folder = app_folder(name)
    if (folder / "definition.yaml").is_file():
        return engine_app(load_definition(folder / "definition.yaml"))
    return importlib.import_module(f"infra.hub.apps.{name}").APP
