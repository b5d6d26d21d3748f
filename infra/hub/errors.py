"""Hub errors and their HTTP mapping: every failure leaves the hub as `{error, hint}` JSON.

Clients (reward.py, setup scripts, the UIs) branch on the status code; a person reads `hint`.
"""

from __future__ import annotations

import logging

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from infra.errors import CuagymError

log = logging.getLogger(__name__)
BUG_HINT = "this is a hub bug; the server log has the traceback"


class HubError(CuagymError):
    """A request the hub refuses; `status_code` is what the client receives."""

    status_code = 400


class BadRequestError(HubError):
    """Malformed input: bad sid, bad JSON, invalid UTF-8, unknown action."""

    status_code = 400


class ForbiddenError(HubError):
    """The request may not touch this session: another env's sid through a pinned route, or a
    write from a web page of another origin."""

    status_code = 403


class NotFoundError(HubError):
    """No such file (or not visible to this session)."""

    status_code = 404


class ConflictError(HubError):
    """The hub cannot do this in its current setup (e.g. pinned routes on a hub with no server)."""

    status_code = 409


class PayloadTooLargeError(HubError):
    """The request body is over the configured limit."""

    status_code = 413


class PreconditionFailedError(HubError):
    """`If-Match` names a version the session has moved past (another client wrote since)."""

    status_code = 412


class UnsupportedMediaTypeError(HubError):
    """A state write whose body is not declared as JSON (what a cross-origin form could send)."""

    status_code = 415


class InvalidStateError(HubError):
    """The state is well-formed JSON but does not fit the app's schema."""

    status_code = 422


class SessionLimitError(HubError):
    """The app already holds `max_sessions` sessions; a new one is refused rather than evicting a
    session some env may still be using."""

    status_code = 503


def error_body(error: str, hint: str, status_code: int) -> JSONResponse:
    return JSONResponse({"error": error, "hint": hint}, status_code=status_code)


async def hub_error_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HubError)
    return error_body(exc.message, exc.hint, exc.status_code)


async def http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    hints = {
        404: "the hub serves /<app>/ for each enabled app; GET / lists them",
        405: "state changes are POST /<app>/post; reads are GET /<app>/go and /<app>/state",
    }
    hint = hints.get(exc.status_code, "see DESIGN.md §3.3 for the state API")
    return error_body(f"{exc.detail} ({request.method} {request.url.path})", hint, exc.status_code)


async def validation_error_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(part) for part in first.get("loc", ()))
    return error_body(
        f"invalid request: {where}: {first.get('msg', 'invalid')}",
        "check the query parameters and body against DESIGN.md §3.3",
        400,
    )


async def unexpected_error_handler(request: Request, exc: Exception) -> JSONResponse:
    # Backstop only (UnexpectedErrorMiddleware answers first): Starlette re-raises after this
    # handler, and uvicorn then drops the connection.
    return error_body(_bug_message(request.method, request.url.path, exc), BUG_HINT, 500)


class UnexpectedErrorMiddleware:
    """Answer a bug with the usual 500 `{error, hint}` body and keep the connection open.

    Starlette's handler for `Exception` re-raises after answering, and uvicorn closes a connection
    whose app raised: a keep-alive client (httpx, requests.Session, a browser) would then see its
    next request fail too. Here the traceback is logged and the exception stops."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            if started:  # half a response is out: only closing the connection can end it
                raise
            await _answer(exc, scope)(scope, receive, send)


def _answer(exc: Exception, scope: Scope) -> JSONResponse:
    if isinstance(exc, HubError):  # raised outside a route (e.g. a body limit), still the client's
        return error_body(exc.message, exc.hint, exc.status_code)
    log.error("unexpected error handling %s %s", scope["method"], scope["path"], exc_info=exc)
    return error_body(_bug_message(scope["method"], scope["path"], exc), BUG_HINT, 500)


def _bug_message(method: str, path: str, exc: Exception) -> str:
    return f"internal error handling {method} {path}: {type(exc).__name__}"
