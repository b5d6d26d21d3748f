"""The unified state API (DESIGN.md §3.3), written once and mounted under every app's prefix.

    POST /<app>/post?sid=S     {action: set|set_current|reset, state?, merge?}  -> {success, ok, sid, action, ...}
    GET  /<app>/go?sid=S       -> {initial_state, current_state, state_diff}
    GET  /<app>/state?sid=S    -> {stored_state, has_custom_state, sid}; stored_state is null until set
    POST /<app>/upload?sid=S   multipart -> {success, files: [{original_name, stored_name, size, content_type, url}]}
    GET  /<app>/files/S/<name> a file uploaded by S (404 for any other sid)
    GET  /<app>/               the app's UI (index.html; it loads assets/ and /_hub/static/)

Errors are `{error, hint}` with 400 (bad sid, JSON, UTF-8, action), 413 (too large), 422 (state
does not fit the schema, or nests deeper than max_state_depth) or 404. Compatibility with
CUA-Gym-Hub clients: infra/hub/README.md.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, Response
from starlette.datastructures import UploadFile

from infra.hub.errors import BadRequestError
from infra.hub.persist import SessionDB
from infra.hub.registry import MockApp
from infra.hub.settings import HubSettings
from infra.hub.store import AppSessions
from infra.hub.uploads import content_disposition, resolve_stored, save_uploads

SID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
JSON_TYPE = "application/json"


class Hub:
    """Everything one hub process holds: its settings, apps and their sessions (built in the lifespan)."""

    def __init__(self, settings: HubSettings, apps: list[MockApp]) -> None:
        self.settings = settings
        self.apps = {app.name: app for app in apps}
        self.db = SessionDB(settings.data_dir / "sessions.sqlite3")
        self.sessions = {
            app.name: AppSessions(
                app, settings.data_dir, settings.session_ttl_s, self.db, max_depth=settings.max_state_depth
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
    return sid


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
        payload = parse_json_object(await request.body())
        merge = payload.get("merge", False)
        if not isinstance(merge, bool):
            raise BadRequestError("'merge' must be true or false", hint="omit it or send a JSON boolean")
        action = payload.get("action")
        if not isinstance(action, str):
            raise BadRequestError("missing 'action'", hint="action is one of set, set_current, reset")
        session = hub.sessions[app.name].apply(sid, action, payload.get("state"), merge)
        # `success` is what CUA-Gym-Hub clients check; `ok` is ours.
        body = {
            "success": True,
            "ok": True,
            "sid": sid,
            "action": action,
            "has_custom_state": session.has_custom_state,
        }
        return Response(orjson.dumps(body), media_type=JSON_TYPE)

    @router.get("/go")
    async def go(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        return Response(hub.sessions[app.name].go(sid), media_type=JSON_TYPE)

    @router.get("/state")
    async def state(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
        stored, custom = hub.sessions[app.name].stored(sid)
        body = {"stored_state": stored, "has_custom_state": custom, "sid": sid}
        return Response(orjson.dumps(body), media_type=JSON_TYPE)

    @router.post("/upload")
    async def upload(request: Request, hub: Hub = Depends(get_hub)) -> Response:
        sid = check_sid(request.query_params.get("sid"))
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
        return FileResponse(app.static_dir / "index.html", headers={"Cache-Control": "no-cache"})

    return router
