"""Pinned routes: one unix socket per env, each serving that env's own hub session and no other.

A sandbox reaches the hub through a socket bound into it (infra/hub_route.py forwards the guest's
127.0.0.1:8400 there, for scripts and for the desktop's browser alike). Were that the hub's own
socket, a script could read and write every session: a reward could keep an oracle in
`sid + "x"`, or the initial and golden envs could pass notes through a session they agree on. So
the run asks the hub, on its own socket (never bound into a sandbox), for a route pinned to the
env's sid:

    POST /_hub/routes {"sid": S}        -> {"sid": S, "socket": "/…/routes/<random>.sock"}
    DELETE /_hub/routes?sid=S           -> {"sid": S, "closed": true|false}

A request that comes in through a pinned socket may name sid S only — in `?sid=` or in
`/<app>/files/<sid>/…` — and never reaches `/_hub/` (bar the shared static files): anything else
is answered 403 with `{error, hint}` before the app sees it.

The listeners are served by the hub's own uvicorn server (same event loop, app and lifespan
state), each through an ASGI wrapper that enforces its pin. A route nobody used for a session TTL
is closed by the hub's sweep, like an idle session.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from infra.hub.errors import ConflictError, ForbiddenError, error_body
from infra.hub.state_api import JSON_TYPE, check_sid, parse_json_object

if TYPE_CHECKING:
    import uvicorn

PIN_KEY = "cuagym.pinned_sid"  # set in the ASGI scope of every request through a pinned route
FILES_PATH = re.compile(r"^/[^/]+/files/([^/]*)")
OPEN_PREFIX = "/_hub/static/"


@dataclass
class PinnedRoute:
    sid: str
    socket: Path
    listener: asyncio.AbstractServer | None = None
    touched: float = field(default_factory=time.time)


class PinnedApp:
    """ASGI wrapper of the hub app for one route: refuses every request about another session."""

    def __init__(self, app: ASGIApp, route: PinnedRoute) -> None:
        self.app = app
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.route.touched = time.time()
            refusal = self.refusal(scope)
            if refusal is not None:
                await error_body(refusal.message, refusal.hint, refusal.status_code)(scope, receive, send)
                return
            scope = {**scope, PIN_KEY: self.route.sid}
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> ForbiddenError | None:
        own = self.route.sid
        path: str = scope["path"]
        if path.startswith("/_hub/") and not path.startswith(OPEN_PREFIX):
            return ForbiddenError(
                f"{path} is not served on an env's route", hint="hub administration is for the run only"
            )
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        named = list(query.get("sid", []))
        files = FILES_PATH.match(path)
        if files:
            named.append(files.group(1))
        others = [sid for sid in named if sid != own]
        if not others:
            return None
        return ForbiddenError(
            f"this route serves session {own} only, not {others[0][:40]!r}",
            hint="use the sid in CUAGYM_SID (the env's own session); other sessions are not reachable "
            "from an env",
        )


class RouteTable:
    """The pinned routes of one hub process; `attach` hands it the uvicorn server that serves them."""

    def __init__(self, route_dir: Path) -> None:
        self.app: ASGIApp | None = None  # the hub app, set once it is built (it includes this table)
        self.route_dir = route_dir
        self.server: uvicorn.Server | None = None
        self.routes: dict[str, PinnedRoute] = {}

    def attach(self, server: uvicorn.Server) -> None:
        self.server = server

    async def open(self, sid: str) -> PinnedRoute:
        """The route pinned to `sid` (the same one if it is open already)."""
        if sid in self.routes:
            return self.routes[sid]
        if self.server is None or self.app is None:
            raise ConflictError(
                "this hub serves no pinned routes (it was not started by python -m infra.hub)",
                hint="start the hub with HubProcess (python -m infra.hub with CUAGYM_HUB_UDS)",
            )
        self.route_dir.mkdir(parents=True, exist_ok=True)
        path = self.route_dir / f"{secrets.token_hex(8)}.sock"
        route = PinnedRoute(sid, path)
        protocol = self._protocol_factory(PinnedApp(self.app, route))
        route.listener = await asyncio.get_running_loop().create_unix_server(protocol, path=str(path))
        os.chmod(path, 0o666)  # the sandbox's uid must be able to connect
        self.routes[sid] = route
        return route

    def _protocol_factory(self, app: PinnedApp) -> Any:
        import uvicorn

        server = self.server
        assert server is not None
        # Its own Config (so its own app), but the main server's state: the lifespan's `hub`, the
        # connection set a graceful shutdown waits on, the Date header it refreshes.
        config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="off", proxy_headers=False)
        config.load()

        def protocol() -> asyncio.Protocol:
            return config.http_protocol_class(
                config=config, server_state=server.server_state, app_state=server.lifespan.state
            )

        return protocol

    def close(self, sid: str) -> bool:
        route = self.routes.pop(sid, None)
        if route is None:
            return False
        if route.listener is not None:
            route.listener.close()
        with contextlib.suppress(FileNotFoundError):
            route.socket.unlink()
        return True

    def close_all(self) -> None:
        for sid in list(self.routes):
            self.close(sid)

    def sweep(self, idle_s: float) -> int:
        """Close routes nobody used for `idle_s` seconds; returns how many."""
        now = time.time()
        idle = [sid for sid, route in self.routes.items() if now - route.touched > idle_s]
        for sid in idle:
            self.close(sid)
        return len(idle)


def build_routes_router(table: RouteTable) -> APIRouter:
    """`/_hub/routes`: open and close pinned routes (refused through a pinned route itself)."""
    router = APIRouter(prefix="/_hub/routes", include_in_schema=False)

    def check_unpinned(request: Request) -> None:
        if PIN_KEY in request.scope:  # PinnedApp refuses /_hub/ already; this holds if it ever did not
            raise ForbiddenError(
                "routes cannot be opened from an env's route", hint="ask on the hub's socket"
            )

    @router.post("")
    async def open_route(request: Request) -> Response:
        check_unpinned(request)
        sid = parse_json_object(await request.body()).get("sid")
        sid = check_sid(sid if isinstance(sid, str) else None)
        route = await table.open(sid)
        return Response(orjson.dumps({"sid": sid, "socket": str(route.socket)}), media_type=JSON_TYPE)

    @router.delete("")
    async def close_route(request: Request) -> Response:
        check_unpinned(request)
        sid = check_sid(request.query_params.get("sid"))
        return Response(orjson.dumps({"sid": sid, "closed": table.close(sid)}), media_type=JSON_TYPE)

    return router
