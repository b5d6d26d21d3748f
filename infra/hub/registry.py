"""What a mock app contributes to the hub, and how the hub finds the apps it was asked to host.

Each package `infra/hub/apps/<name>/` exposes `APP: MockApp`. The hub implements the state API
once (infra/hub/state_api.py); an app only declares its schema, seed, volatile keys, UI files and,
if it needs them, extra routes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ValidationError

from infra.errors import ConfigError
from infra.hub.diff import VolatileKeys
from infra.hub.errors import InvalidStateError
from infra.hub.settings import ALL_APPS


@dataclass(frozen=True)
class MockApp:
    """One mock web application.

    - `name`: the URL prefix (`/<name>/`) and the key in settings.apps.
    - `model`: pydantic model every stored state must validate against (extra keys allowed).
    - `seed`: returns the default state; deterministic (no wall clock, no randomness).
    - `volatile`: dotted patterns excluded from `/go`'s state_diff (`*` = one segment).
    - `static_dir`: index.html plus the ES modules and CSS it loads (served under /<name>/assets/).
    - `router`: optional extra routes, included under `/<name>/`.
    """

    name: str
    title: str
    description: str
    model: type[BaseModel]
    seed: Callable[[], dict[str, Any]]
    volatile: tuple[str, ...]
    static_dir: Path
    router: APIRouter | None = None
    volatile_keys: VolatileKeys = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "volatile_keys", VolatileKeys(self.volatile))

    def validate(self, state: dict[str, Any]) -> None:
        """Raise InvalidStateError (422) naming the first bad fields if `state` breaks the schema."""
        try:
            self.model.model_validate(state)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
                for err in exc.errors()[:3]
            )
            raise InvalidStateError(
                f"state does not fit the {self.name} schema: {problems}",
                hint=f"see infra/hub/apps/{self.name}/SCHEMA.md for field names and types",
            ) from None


def load_mock_apps(names: list[str] | tuple[str, ...]) -> list[MockApp]:
    """Import `infra.hub.apps.<name>.APP` for each name, in order; unknown names raise ConfigError."""
    unknown = [n for n in names if n not in ALL_APPS]
    if unknown:
        raise ConfigError(
            f"unknown hub app(s): {', '.join(unknown)}", hint=f"choose from {', '.join(ALL_APPS)}"
        )
    if len(set(names)) != len(names):
        raise ConfigError(f"hub apps listed twice: {', '.join(names)}", hint="list each app once")
    apps = [importlib.import_module(f"infra.hub.apps.{name}").APP for name in names]
    for app in apps:
        app.validate(app.seed())  # a broken seed is a bug in the app; fail at start, not per request
    return apps
