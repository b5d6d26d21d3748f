"""The app engine: a web app as data (definition.py), served through the hub's one state API.

An app folder `infra/hub/apps/<name>/` holding a `definition.yaml` is an engine app: the hub builds
its state model (state_model.py), seeded world (seed.py) and pages (mock.py, static/engine/) from
it. Apps written by `cuagym hub synth-app` live under the settings' `synth_apps_dir` instead and are
found the same way.
"""

from __future__ import annotations

from pathlib import Path

from infra.hub.engine.definition import (
    DEFINITION,
    AppDefinition,
    DefinitionError,
    load_definition,
    parse_definition,
)
from infra.hub.engine.mock import engine_app

APPS_DIR = Path(__file__).resolve().parents[1] / "apps"

__all__ = [
    "DEFINITION",
    "AppDefinition",
    "DefinitionError",
    "app_folder",
    "engine_app",
    "load_definition",
    "parse_definition",
]


def app_folder(name: str) -> Path:
    """Where app `name`'s files are: the tree's apps folder, else the synthesized apps' folder."""
    folder = APPS_DIR / name
    if folder.is_dir():
        return folder
    from infra.settings import get_settings

    return get_settings().var_dir / "apps" / name
