"""How one hub process is configured. Every field can be set with a `CUAGYM_HUB_*` variable.

The hub binds loopback by default: it has no authentication (the paper's mocks deliberately drop
it), so exposing it beyond the machine is an explicit choice (`CUAGYM_HUB_HOST=0.0.0.0`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from infra.apps import web_apps
from infra.settings import get_settings

ALL_APPS: tuple[str, ...] = web_apps()  # the web apps of skills/*/app.yaml (infra/apps.py)
# The deepest state the hub can always store and serve. orjson writes at most 254 nested
# objects/arrays and /go puts a state two levels down (`state_diff` -> path -> old/new holds at
# most a subtree of it, so the body nests at most depth + 2); the rest is headroom.
MAX_STORABLE_DEPTH = 250


def _default_data_dir() -> Path:
    return get_settings().var_dir / "hub"


class HubSettings(BaseSettings):
    """Settings of one hub process (one uvicorn worker: sessions live in its memory and data dir).

    Example:

        HubSettings(apps=["chat"], port=8401, data_dir=Path("/tmp/hub"), session_ttl_s=5)
        CUAGYM_HUB_APPS=chat,mail CUAGYM_HUB_PORT=8401 cuagym hub serve
    """

    model_config = SettingsConfigDict(env_prefix="CUAGYM_HUB_", extra="ignore")

    host: str = Field(default="127.0.0.1", description="interface to bind (loopback by default)")
    port: int = Field(
        default=8400, ge=0, le=65535, description="TCP port (0: no TCP listener when uds is set)"
    )
    uds: Path | None = Field(
        default=None, description="also serve on this unix socket (how sandboxes reach it)"
    )
    apps: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(ALL_APPS), description="mock apps to host, by URL name"
    )
    data_dir: Path = Field(default_factory=_default_data_dir, description="sessions and uploads")
    session_ttl_s: float = Field(default=3600.0, gt=0, description="idle seconds before a session expires")
    sweep_interval_s: float = Field(default=60.0, gt=0, description="how often expired sessions are purged")
    max_body_bytes: int = Field(default=4 * 1024 * 1024, gt=0, description="largest JSON request body")
    max_upload_bytes: int = Field(default=25 * 1024 * 1024, gt=0, description="largest upload request")
    max_files_per_upload: int = Field(default=20, gt=0, description="files accepted by one /upload")
    max_state_depth: int = Field(
        default=64,
        ge=8,
        le=MAX_STORABLE_DEPTH,
        description="deepest nesting of objects/arrays a state may have (deeper states are refused with 422)",
    )

    strict_schema: bool = Field(
        default=False,
        description="check every written state against the app's schema (422 if it does not fit); "
        'off by default, as in CUA-Gym-Hub, and a request can ask for it with "strict": true',
    )
    max_sessions: int = Field(
        default=10_000,
        gt=0,
        description="sessions one app may hold (memory and disk); a new session past it is refused with 503",
    )
    max_cached_sessions: int = Field(
        default=256,
        gt=0,
        description="sessions one app keeps in memory; the least recently used others wait on disk",
    )
    route_dir: Path | None = Field(
        default=None,
        description="where per-env pinned sockets are made (default: beside uds, else under data_dir)",
    )

    @field_validator("apps", mode="before")
    @classmethod
    def _split_apps(cls, value: object) -> object:
        # The environment gives "chat,mail"; Python callers give a list. Accept both.
        if isinstance(value, str):
            return [name.strip() for name in value.split(",") if name.strip()]
        return value
