"""The hub: mock web applications sharing one state API (DESIGN.md §3.3).

`create_app(HubSettings())` returns the ASGI app; `cuagym hub serve` runs it with uvicorn.
"""

from infra.hub.app import create_app
from infra.hub.settings import ALL_APPS, HubSettings

__all__ = ["ALL_APPS", "HubSettings", "create_app"]
