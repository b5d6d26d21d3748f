"""The one error channel of the in-guest server, and the reply shapes OSWorld's Flask server uses.

Every failure is raised as `HttpError(status, body)` and turned into a real HTTP error: a dict body
becomes JSON, a str body plain text — never a 200 with an empty body. Plain-text replies carry
Flask's content type for a returned str (text/html; charset=utf-8), because OSWorld's controllers
were written against Flask and some log or sniff the raw text.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

FLASK_TEXT = "text/html; charset=utf-8"


class HttpError(Exception):
    """Raise from a route to answer `status` with `body` (dict → JSON, str → text)."""

    def __init__(self, status: int, body: dict[str, Any] | str) -> None:
        super().__init__(body if isinstance(body, str) else json.dumps(body))
        self.status = status
        self.body = body


def text(body: str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type=FLASK_TEXT)


def reply(body: dict[str, Any] | list[Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status)


def error_response(exc: HttpError) -> Response:
    return text(exc.body, exc.status) if isinstance(exc.body, str) else reply(exc.body, exc.status)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 400 when the body is not one (Flask's `request.json` would 400/415)."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"null")
    except ValueError as exc:
        raise HttpError(400, {"status": "error", "message": f"request body is not JSON: {exc}"}) from None
    if not isinstance(data, dict):
        raise HttpError(400, {"status": "error", "message": "request body must be a JSON object"})
    return data


def guest_path(raw: str) -> str:
    """A path as OSWorld's server reads it: `~` and $VARS expanded."""
    return os.path.expandvars(os.path.expanduser(raw))


def run_captured(
    command: list[str] | str,
    *,
    shell: bool,
    timeout_s: float,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    merge_stderr: bool = False,
) -> tuple[int, str, str]:
    """Run a command to completion: (returncode, stdout, stderr), output decoded leniently.

    On timeout the command's whole process group is killed (a shell's children too) and
    subprocess.TimeoutExpired is raised. OSError (e.g. no such program) propagates.
    """
    proc = subprocess.Popen(
        command,
        shell=shell,
        cwd=cwd,
        env={**os.environ, **env} if env else None,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, _text(out), _text(err)


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")
