"""The unified state API (DESIGN.md §3.3), written once and mounted under every app's prefix.

    POST /<app>/post?sid=S     {action: set|set_current|reset, state?, merge?, strict?}  -> {success, ok, sid, action, version, ...}
    GET  /<app>/go?sid=S       -> {initial_state, current_state, state_diff}
    GET  /<app>/state?sid=S    -> {stored_state, has_custom_state, sid}; stored_state is null until set
    POST /<app>/upload?sid=S   multipart -> {success, files: [{original_name, stored_name, size, content_type, url}]}
    GET  /<app>/files/S/<name> a file uploaded by S (404 for any other sid)
    GET  /<app>/               the app's UI (index.html; it loads assets/ and /_hub/static/)

Writes: `/post` needs `Content-Type: application/json` (415 otherwise) and `/post` and `/upload`
refuse a browser request from another origin (403), so a web page the desktop's browser opens
cannot set or reset a session. `/go`, `/state` and `/post` answer an `ETag` with the session's
version; a `/post` with `If-Match` is refused with 412 if the session has moved on since.

Errors are `{error, hint}` with 400 (bad sid, JSON, UTF-8, action), 403, 412, 413 (too large), 415,
422 (state nests deeper than max_state_depth, or breaks the schema with `strict`), 503 (session
limit) or 404. Compatibility with CUA-Gym-Hub clients: infra/hub/README.md.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.datastructures import UploadFile

from infra.hub.errors import BadRequestError, ForbiddenError, UnsupportedMediaTypeError
from infra.hub.persist import SessionDB
from infra.hub.registry import MockApp
from infra.hub.settings import HubSettings
from infra.hub.store import AppSessions
from infra.hub.uploads import content_disposition, resolve_stored, save_uploads

SID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
# CUA-Gym-Hub's name for its sid-less session: reserved there (400), so clients never use it.
RESERVED_SID = "_default"
JSON_TYPE = "application/json"


class Hub:
    """Everything one hub process holds: its settings, apps and their sessions (built in the lifespan)."""

    def __init__(self, settings: HubSettings, apps: list[MockApp]) -> None:
        self.settings = settings
        self.apps = {app.name: app for app in apps}
        self.db = SessionDB(settings.data_dir / "sessions.sqlite3")
        self.sessions = {
            app.name: AppSessions(
                app,
                settings.data_dir,
                settings.session_ttl_s,
                self.db,
                max_depth=settings.max_state_depth,
                max_sessions=settings.max_sessions,
                max_cached=settings.max_cached_sessions,
            )
            for app in apps
        }

    def sweep(self) -> int:
        return sum(sessions.sweep() for sessions in self.sessions.values())

    def close(self) -> None:
        self.db.close()


async def get_hub(request: Request) -> Hub:
    """Dependency: the Hub the lifespan put in request state (so two hubs can share a process).

    `async` on purpose: FastAPI runs a plain `def` dependency in a worker thread, which costs more
    than the whole state-API request it serves."""
    return request.state.hub


def check_sid(sid: str | None) -> str:
    if sid is None or not SID.match(sid):
        shown = "missing" if sid is None else repr(sid[:40])
        raise BadRequestError(
            f"invalid sid ({shown})", hint="pass ?sid= matching ^[A-Za-z0-9_-]{1,128}$ (a UUID4 works)"
        )
    if sid == RESERVED_SID:
        raise BadRequestError(
            f"sid {RESERVED_SID!r} is reserved (CUA-Gym-Hub's sid-less session)",
            hint="pick another sid (a UUID4 works)",
        )
    return sid


def check_same_origin(request: Request) -> None:
    """Refuse a write a browser sends from a page of another origin (403).

    Browsers put `Origin` on every POST; scripts (requests, httpx, curl) send none and pass. A
    page of another origin could otherwise post a form or a text/plain fetch to the hub: CORS
    only stops it from reading the answer, not the write."""
    origin = request.headers.get("origin")
    if origin is None:
        return
    host = request.headers.get("host", "")
    if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
        raise ForbiddenError(
            f"a write from the web page origin {origin[:100]!r} to the hub at {host[:100]!r}",
            hint="only the app's own pages (same origin) and scripts may write a session",
        )


def check_json_body(request: Request) -> None:
    """Refuse a /post whose body is not declared JSON (415): form and text/plain bodies are what
    a cross-origin page can send without a CORS preflight."""
    declared = request.headers.get("content-type", "")
    if declared.split(";", 1)[0].strip().lower() != JSON_TYPE:
        raise UnsupportedMediaTypeError(
            f"POST /post needs Content-Type: {JSON_TYPE}, not {declared[:80] or 'none'!r}",
            hint="send the body as JSON (requests: json=..., fetch: headers {'Content-Type': "
            "'application/json'})",
        )


def parse_if_match(header: str | None) -> set[str] | None:
    """The versions an If-Match header names (`"3"`, `W/"3"`, lists); None for no header or `*`."""
    if header is None:
        return None
    tags = {part.strip().removeprefix("W/").strip('"') for part in header.split(",")}
    return None if "*" in tags else tags


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def strict_flag(payload: dict[str, Any], default: bool) -> bool:
    strict = payload.get("strict", default)
    if not isinstance(strict, bool):
        raise BadRequestError("'strict' must be true or false", hint="omit it or send a JSON boolean")
    return strict


def parse_json_object(body: bytes) -> dict[str, Any]:
    """Decode a request body as a UTF-8 JSON object, or raise BadRequestError saying what is wrong."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequestError(
            f"request body is not valid UTF-8 (byte {exc.start})", hint="encode the JSON body as UTF-8"
        ) from None
    try:
        payload = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise BadRequestError(
            f"request body is not JSON: {exc}", hint='send {"action": ..., "state": {...}}'
        ) from None
    if not isinstance(payload, dict):
        raise BadRequestError(
            "request body must be a JSON object", hint='send {"action": ..., "state": {...}}'
        )
    return payload


def build_state_router(app: MockApp) -> APIRouter:
    """The state API and UI entry point for `app`, to be included at the hub root."""
    router = APIRouter(prefix=f"/{app.name}", tags=[app.name])

    @router.post("/post")
    async def post_state(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        check_same_origin(request)
        check_json_body(request)
        payload = parse_json_object(await request.body())
        merge = payload.get("merge", False)
        if not isinstance(merge, bool):
            raise BadRequestError("'merge' must be true or false", hint="omit it or send a JSON boolean")
        action = payload.get("action")
        if not isinstance(action, str):
            raise BadRequestError("missing 'action'", hint="action is one of set, set_current, reset")
        session = hub.sessions[app.name].apply(
            sid,
            action,
            payload.get("state"),
            merge,
            strict=strict_flag(payload, hub.settings.strict_schema),
            if_match=parse_if_match(request.headers.get("if-match")),
        )
        # `success` is what CUA-Gym-Hub clients check; `ok` is ours.
        body = {
            "success": True,
            "ok": True,
            "sid": sid,
            "action": action,
            "has_custom_state": session.has_custom_state,
            "version": session.version,
        }
        return Response(orjson.dumps(body), media_type=JSON_TYPE, headers=etag(session.version))

    @router.get("/go")
    async def go(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        body, version = hub.sessions[app.name].go(sid)
        return Response(body, media_type=JSON_TYPE, headers=etag(version))

    @router.get("/state")
    async def state(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        stored, custom, version = hub.sessions[app.name].stored(sid)
        body = {"stored_state": stored, "has_custom_state": custom, "sid": sid}
        return Response(orjson.dumps(body), media_type=JSON_TYPE, headers=etag(version))

    @router.post("/upload")
    async def upload(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        check_same_origin(request)
        settings = hub.settings
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            raise BadRequestError(
                "upload needs a multipart/form-data body",
                hint="send the file as a form field, e.g. curl -F file=@report.pdf",
            )
        async with request.form(max_files=settings.max_files_per_upload + 1) as form:
            files = [value for _, value in form.multi_items() if isinstance(value, UploadFile)]
            folder = hub.sessions[app.name].files_dir(sid, create=True)
            described = await save_uploads(
                files,
                folder,
                f"/{app.name}/files/{sid}",
                max_files=settings.max_files_per_upload,
                max_bytes=settings.max_upload_bytes,
            )
        return Response(orjson.dumps({"success": True, "files": described}), media_type=JSON_TYPE)

    @router.get("/files/{sid}/{name}")
    async def file(sid: str, name: str, hub: Hub = Depends(get_hub)) -> Response:
        check_sid(sid)
        path = resolve_stored(hub.sessions[app.name].files_dir(sid, create=False), name)
        media, disposition = content_disposition(path)
        return FileResponse(
            path,
            media_type=media,
            content_disposition_type=disposition,
            filename=name,
            headers={"X-Content-Type-Options": "nosniff"},
        )

    @router.get("/", include_in_schema=False)
    async def index() -> Response:
        # no-cache: the UI is edited in place and must never mix old and new modules.
        if app.index_html is not None:
            return HTMLResponse(app.index_html, headers={"Cache-Control": "no-cache"})
        return FileResponse(app.static_dir / "index.html", headers={"Cache-Control": "no-cache"})

    return router
