"""What a mock app contributes to the hub: its schema, seed, volatile keys, UI and extra routes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ValidationError

from infra.hub.diff import VolatileKeys
from infra.hub.errors import InvalidStateError


@dataclass(frozen=True)
class MockApp:
    """One mock web application.

    - `name`: the URL prefix (`/<name>/`) and the key in settings.apps.
    - `model`: pydantic model every stored state must validate against (extra keys allowed).
    - `seed`: returns the default state; deterministic (no wall clock, no randomness).
    - `volatile`: dotted patterns excluded from `/go`'s state_diff (`*` = one segment).
    - `static_dir`: index.html plus the ES modules and CSS it loads (served under /<name>/assets/).
    - `router`: optional extra routes, included under `/<name>/`.
    - `index_html`: the page at `/<name>/` when it is generated (engine apps), else static_dir's index.html.
    """

    name: str
    title: str
    description: str
    model: type[BaseModel]
    seed: Callable[[], dict[str, Any]]
    volatile: tuple[str, ...]
    static_dir: Path
    router: APIRouter | None = None
    index_html: str | None = None  # the UI's page, when it is generated rather than static_dir's index.html
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
