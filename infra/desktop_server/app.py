"""The in-guest server's ASGI app: OSWorld's routes behind a token, one error channel.

`create_app(session, token)` mounts the route modules and wraps them in `TokenGuard`: every request
must carry the token, as `Authorization: Bearer <token>` or as the password of HTTP Basic auth (any
user name). Basic auth is what lets OSWorld's unmodified controllers in: they build their URLs as
`http://{vm_ip}:{port}`, so a vm_ip of `cuagym:<token>@127.0.0.1` makes `requests` send it.
"""

from __future__ import annotations

import base64
import hmac
import logging

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from . import routes_exec, routes_files, routes_screen, routes_wallpaper, routes_windows
from .replies import HttpError, error_response, reply
from .session import Session

log = logging.getLogger(__name__)


class TokenGuard:
    """ASGI middleware: 401 for any HTTP request without the right token (compared in constant time)."""

    def __init__(self, app, token: str) -> None:
        if len(token) < 16:
            raise ValueError("the server token must be at least 16 characters")
        self.app = app
        self._token = token.encode()

    def _presented(self, scope) -> bytes | None:
        for key, value in scope.get("headers", ()):
            if key != b"authorization":
                continue
            scheme, _, credentials = value.partition(b" ")
            if scheme.lower() == b"bearer":
                return credentials.strip()
            if scheme.lower() == b"basic":
                try:
                    return base64.b64decode(credentials.strip(), validate=True).partition(b":")[2]
                except ValueError:
                    return None
        return None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        presented = self._presented(scope)
        if presented is not None and hmac.compare_digest(presented, self._token):
            return await self.app(scope, receive, send)
        response = JSONResponse(
            {
                "status": "error",
                "message": "missing or wrong token: send it as a Bearer token or as the "
                "HTTP Basic password (http://cuagym:<token>@host:port)",
            },
            status_code=401,
            headers={"WWW-Authenticate": 'Basic realm="cuagym desktop"'},
        )
        await response(scope, receive, send)


async def _http_error(request: Request, exc: Exception):
    assert isinstance(exc, HttpError)
    return error_response(exc)


async def _unexpected(request: Request, exc: Exception):
    # Process boundary: a bug in a route is still a real 500 with its reason, never an empty 200.
    log.exception("unhandled error in %s %s", request.method, request.url.path)
    return reply({"status": "error", "message": f"{type(exc).__name__}: {exc}"}, 500)


def create_app(session: Session, token: str) -> TokenGuard:
    async def health(request: Request):
        return reply(
            {
                "status": "ok",
                "services": session.service_status(),
                "accessibility": session.accessibility,
                "started_in_s": round(session.started_in_s, 3),
            }
        )

    routes = [
        *routes_exec.make_routes(session),
        *routes_files.make_routes(),
        *routes_screen.make_routes(session),
        *routes_windows.make_routes(session),
        *routes_wallpaper.make_routes(),
        Route("/cuagym/health", health, methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={HttpError: _http_error, Exception: _unexpected})
    return TokenGuard(app, token)
