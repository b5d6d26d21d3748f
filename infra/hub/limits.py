"""Request-body size limits, enforced before a handler buffers anything.

A declared Content-Length over the limit is answered 413 at once; a body without one (chunked) is
counted as it streams and the read fails with PayloadTooLargeError (413) once it passes the limit.
Uploads (`…/upload`) get their own, larger limit.
"""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from infra.hub.errors import PayloadTooLargeError


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_upload_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_upload_bytes = max_upload_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = scope["path"].endswith("/upload")
        limit = self.max_upload_bytes if upload else self.max_body_bytes
        setting = "CUAGYM_HUB_MAX_UPLOAD_BYTES" if upload else "CUAGYM_HUB_MAX_BODY_BYTES"
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _reject(send, f"request body of {declared} bytes is over the {limit}-byte limit", setting)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise PayloadTooLargeError(
                        f"request body is over the {limit}-byte limit", hint=f"send less, or raise {setting}"
                    )
            return message

        await self.app(scope, limited_receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _reject(send: Send, error: str, setting: str) -> None:
    body = orjson.dumps({"error": error, "hint": f"send less, or raise {setting}"})
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
