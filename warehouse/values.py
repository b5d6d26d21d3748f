"""How Python values are written to DuckDB columns: TIMESTAMP as naive UTC, JSON as text."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def naive(value: Any) -> Any:
    """DuckDB TIMESTAMP columns hold naive UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return (
        value.astimezone(UTC).replace(tzinfo=None) if isinstance(value, datetime) and value.tzinfo else value
    )


def to_json(value: Any) -> str:
    return json.dumps(value, default=str)
