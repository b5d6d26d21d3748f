"""Window routes: POST /setup/open_file, /setup/activate_window, /setup/close_window, /window_size
(OSWorld's shapes).

/setup/open_file returns only once a window whose title contains the file name (or `window_name`)
is up, activated and painted (settle.py), or answers 500 after `timeout_seconds` (default 1800, as
OSWorld). Files open
in the app for their type (LibreOffice for office documents, as on an OSWorld guest); an existing
path with no app here is a 422, a missing one a 404. activate/close match titles as `wmctrl -a/-c`
does (substring, case-insensitive; `strict` = whole title, case-sensitive; `by_class` = WM_CLASS)
and, unlike OSWorld's server, answer 404 when no window matched instead of claiming success.
/window_size (form `app_class_name`) answers {width, height} of the first managed window whose
WM_CLASS instance or class equals the name (case-insensitive), read from the X server as OSWorld's
server does; 404 {error} when none matches (OSWorld's server then fails with a bare 500).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from starlette.requests import Request
from starlette.routing import Route

from .replies import HttpError, guest_path, json_body, reply, text
from .routes_screen import grabber
from .session import DISPLAY, Session
from .settle import wait_until_painted

OPEN_TIMEOUT_S = 1800.0
POLL_S = 0.1
SETTLE_MAX_S = 20.0  # a window that keeps repainting (an animation) still counts as open after this
OFFICE_SUFFIXES = {
    ".xlsx",
    ".xls",
    ".xlsm",
    ".ods",
    ".csv",
    ".tsv",
    ".docx",
    ".doc",
    ".odt",
    ".rtf",
    ".txt",
    ".pptx",
    ".ppt",
    ".odp",
    ".odg",
    ".pdf",
}


def list_windows() -> list[tuple[str, str]]:
    """(window id, title) of every managed window, from `wmctrl -l`."""
    out = subprocess.run(["wmctrl", "-l"], capture_output=True, text=True, check=False).stdout
    windows = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3:
            windows.append((parts[0], parts[3] if len(parts) == 4 else ""))
    return windows


def find_window(candidates: list[str]) -> str | None:
    for window_id, title in list_windows():
        if any(candidate in title for candidate in candidates):
            return window_id
    return None


def window_size(app_class_name: str) -> tuple[int, int] | None:
    """(width, height) of the first client window (_NET_CLIENT_LIST order) of that WM_CLASS."""
    from Xlib import X, display, error

    wanted = app_class_name.lower()
    conn = display.Display(DISPLAY)
    try:
        root = conn.screen().root
        clients = root.get_full_property(conn.intern_atom("_NET_CLIENT_LIST"), X.AnyPropertyType)
        for window_id in clients.value if clients is not None else ():
            window = conn.create_resource_object("window", window_id)
            try:
                wm_class = window.get_wm_class() or ()
                if wanted in (name.lower() for name in wm_class):
                    geometry = window.get_geometry()
                    return geometry.width, geometry.height
            except error.XError:  # the window went away while we looked at it
                continue
    finally:
        conn.close()
    return None


def open_command(path: Path) -> list[str]:
    if path.suffix.lower() in OFFICE_SUFFIXES:
        return ["libreoffice", "--norestore", str(path)]
    if shutil.which("xdg-open"):
        return ["xdg-open", str(path)]
    raise HttpError(
        422, f"No application for {path.suffix or 'extension-less'} files in this desktop: {path}"
    )


def make_routes(session: Session) -> list[Route]:
    from starlette.concurrency import run_in_threadpool

    async def open_file(request: Request):
        data = await json_body(request)
        raw = data.get("path")
        if not raw:
            raise HttpError(400, "Path not supplied!")
        try:
            timeout_s = float(data.get("timeout_seconds", OPEN_TIMEOUT_S))
        except (TypeError, ValueError):
            raise HttpError(400, f"Invalid timeout_seconds: {data.get('timeout_seconds')}") from None
        return await run_in_threadpool(_open, str(raw), data.get("window_name"), timeout_s)

    def _open(raw: str, window_name: str | None, timeout_s: float):
        path = Path(guest_path(raw))
        if path.exists():
            command = open_command(path)
            candidates = [window_name] if window_name else [path.name, path.stem]
        elif shutil.which(raw):  # OSWorld also accepts an application name
            command, candidates = [raw], [window_name or raw]
        else:
            raise HttpError(404, f"Application/file not found: {raw}")
        candidates = [c for c in candidates if c]
        try:
            proc = session.spawn(command)
        except OSError as exc:
            raise HttpError(500, f"Failed to open {raw}. Error: {exc}") from None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            window_id = find_window(candidates)
            if window_id is not None:
                subprocess.run(["wmctrl", "-i", "-a", window_id], check=False)
                wait_until_painted(grabber(), min(deadline, time.monotonic() + SETTLE_MAX_S))
                return text("File opened and window activated successfully")
            code = proc.poll()
            if code not in (None, 0):  # a launcher handing the file to a running app exits 0
                raise HttpError(500, f"Failed to open {raw}: {command[0]} exited with code {code}")
            time.sleep(POLL_S)
        raise HttpError(500, f"Failed to find window for {candidates} within {timeout_s:g} seconds.")

    def _wmctrl_action(data: dict, action: str, done: str):
        name = data.get("window_name")
        if not name:
            raise HttpError(400, "window_name required")
        flags = ("x" if data.get("by_class") else "") + ("F" if data.get("strict") else "") + action
        result = subprocess.run(
            ["wmctrl", f"-{flags}", str(name)], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise HttpError(404, f"Window {name} not found")
        return text(done)

    async def activate_window(request: Request):
        data = await json_body(request)
        return await run_in_threadpool(_wmctrl_action, data, "a", "Window activated successfully")

    async def close_window(request: Request):
        data = await json_body(request)
        return await run_in_threadpool(_wmctrl_action, data, "c", "Window closed successfully.")

    async def get_window_size(request: Request):
        form = await request.form()
        name = form.get("app_class_name")
        if not isinstance(name, str) or not name:
            raise HttpError(400, {"error": "app_class_name is required"})
        size = await run_in_threadpool(window_size, name)
        if size is None:
            raise HttpError(404, {"error": f"no window of class {name} is open"})
        return reply({"width": size[0], "height": size[1]})

    return [
        Route("/window_size", get_window_size, methods=["POST"]),
        Route("/setup/open_file", open_file, methods=["POST"]),
        Route("/setup/activate_window", activate_window, methods=["POST"]),
        Route("/setup/close_window", close_window, methods=["POST"]),
    ]
