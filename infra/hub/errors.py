"""Hub errors and their HTTP mapping: every failure leaves the hub as `{error, hint}` JSON.

Clients (reward.py, setup scripts, the UIs) branch on the status code; a person reads `hint`.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from infra.errors import CuagymError


class HubError(CuagymError):
    """A request the hub refuses; `status_code` is what the client receives."""

    status_code = 400


class BadRequestError(HubError):
    """Malformed input: bad sid, bad JSON, invalid UTF-8, unknown action."""

    status_code = 400


class NotFoundError(HubError):
    """No such file (or not visible to this session)."""

    status_code = 404


class PayloadTooLargeError(HubError):
    """The request body is over the configured limit."""

    status_code = 413


class InvalidStateError(HubError):
    """The state is well-formed JSON but does not fit the app's schema."""

    status_code = 422


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
    return error_body(f"invalid request: {where}: {first.get('msg', 'invalid')}",
                      "check the query parameters and body against DESIGN.md §3.3", 400)


async def unexpected_error_handler(request: Request, exc: Exception) -> JSONResponse:
    # A bug, not a bad request: keep the {error, hint} shape; the traceback goes to the server log.
    return error_body(f"internal error handling {request.method} {request.url.path}: {type(exc).__name__}",
                      "this is a hub bug; the server log has the traceback", 500)
