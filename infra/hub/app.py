"""`create_app(settings)`: one ASGI app hosting every enabled mock app under `/<name>/`.

Layout of URLs (for app `chat` on the default port):

    http://127.0.0.1:8400/                  index of the hosted apps
    http://127.0.0.1:8400/healthz           {"ok": true, "apps": [...], "sessions": {app: live count}}
    http://127.0.0.1:8400/chat/?sid=S       the chat UI for session S
    http://127.0.0.1:8400/chat/assets/...   the chat UI's own modules and CSS
    http://127.0.0.1:8400/_hub/static/...   modules and CSS shared by every UI
    http://127.0.0.1:8400/chat/{post,go,state,upload,files/S/<name>}   the state API
    http://127.0.0.1:8400/_hub/routes       per-env sockets pinned to one session (routes.py)

All mutable state lives in a `Hub` created by the lifespan and reached through the `get_hub`
dependency: nothing is module-global, so a test can run two hubs side by side.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from infra.hub.errors import (
    HubError,
    UnexpectedErrorMiddleware,
    http_error_handler,
    hub_error_handler,
    unexpected_error_handler,
    validation_error_handler,
)
from infra.hub.limits import BodyLimitMiddleware
from infra.hub.registry import MockApp, load_mock_apps
from infra.hub.routes import RouteTable, build_routes_router
from infra.hub.settings import HubSettings
from infra.hub.state_api import Hub, build_state_router

log = logging.getLogger(__name__)
SHARED_STATIC = Path(__file__).parent / "static"


def create_app(settings: HubSettings, apps: list[MockApp] | None = None) -> FastAPI:
    """Build the hub for `settings` (apps are imported and their seeds checked now; sessions are
    opened in the lifespan, so the data dir is touched only when the server starts).

    Example:

        app = create_app(HubSettings(apps=["chat"], data_dir=tmp_path))
        uvicorn.run(app, host="127.0.0.1", port=8400)

    `apps` hosts these apps instead of `settings.apps` (an app definition not yet declared, such as
    the one `cuagym hub synth-app` is checking).
    """
    apps = load_mock_apps(settings.apps) if apps is None else apps
    routes = RouteTable(route_dir(settings))
    app = FastAPI(
        title="cuagym mock hub",
        lifespan=_lifespan(settings, apps, routes),
        docs_url="/_hub/docs",
        redoc_url=None,
        openapi_url="/_hub/openapi.json",
    )
    # Pinned routes serve this app; python -m infra.hub attaches the uvicorn server that runs them.
    routes.app = app
    app.state.routes = routes
    app.add_middleware(
        BodyLimitMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_upload_bytes=settings.max_upload_bytes,
    )
    app.add_middleware(UnexpectedErrorMiddleware)  # added last: outermost, so it also covers the limits
    app.add_exception_handler(HubError, hub_error_handler)
    app.add_exception_handler(StarletteHTTPException, http_error_handler)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_exception_handler(Exception, unexpected_error_handler)
    app.mount("/_hub/static", StaticFiles(directory=SHARED_STATIC), name="hub-static")
    app.include_router(build_routes_router(routes))
    for mock in apps:
        app.include_router(build_state_router(mock))
        if mock.router is not None:
            app.include_router(mock.router, prefix=f"/{mock.name}", tags=[mock.name])
        app.mount(f"/{mock.name}/assets", StaticFiles(directory=mock.static_dir), name=f"{mock.name}-assets")

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        hub: Hub = request.state.hub
        sessions = {name: store.live_sessions() for name, store in hub.sessions.items()}
        cached = {name: store.cached_sessions() for name, store in hub.sessions.items()}
        return JSONResponse(
            {
                "ok": True,
                "apps": [m.name for m in apps],
                "sessions": sessions,
                "cached_sessions": cached,
                "routes": len(routes.routes),
            }
        )

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(_index_page(apps))

    return app


def route_dir(settings: HubSettings) -> Path:
    """Where pinned sockets go: the setting, else beside the hub's socket, else in the data dir."""
    if settings.route_dir is not None:
        return settings.route_dir
    return settings.uds.parent / "routes" if settings.uds else settings.data_dir / "routes"


def _lifespan(settings: HubSettings, apps: list[MockApp], routes: RouteTable):
    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[dict[str, Hub]]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        hub = Hub(settings, apps)
        sweeper = asyncio.create_task(_sweep_forever(hub, routes, settings))
        try:
            yield {"hub": hub}
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            routes.close_all()
            hub.close()

    return lifespan


async def _sweep_forever(hub: Hub, routes: RouteTable, settings: HubSettings) -> None:
    # Requests already treat an idle session as gone; the sweep only frees memory and disk.
    while True:
        await asyncio.sleep(settings.sweep_interval_s)
        routes.sweep(settings.session_ttl_s)
        try:
            hub.sweep()
        except OSError as exc:  # a full or read-only disk must not kill the sweeper for good
            log.warning("hub sweep failed: %s", exc)


def _index_page(apps: list[MockApp]) -> str:
    cards = "\n".join(
        f'<a class="card" href="{html.escape(m.name)}/?sid=default"><h2>{html.escape(m.title)}</h2>'
        f"<p>{html.escape(m.description)}</p><code>/{html.escape(m.name)}/</code></a>"
        for m in apps
    )
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cuagym hub</title>
<link rel="stylesheet" href="_hub/static/base.css"></head>
<body class="hub-index"><main><h1>cuagym mock hub</h1>
<p class="muted">Each app keeps one state per <code>?sid=</code>; the state API is under each app's path.</p>
<div class="cards">{cards}</div></main></body></html>"""
