"""File routes: POST /file, /list_directory, /setup/upload, /desktop_path (OSWorld's shapes).

- /file: form `file_path` → the bytes as an attachment; 400 without file_path, 404 when missing.
- /list_directory: JSON {path} → {directory_tree: {type, name, children}}; 400 when not a directory.
- /setup/upload: multipart `file_path` + `file_data` → "File Uploaded: N bytes"; parent dirs created.
- /desktop_path: {desktop_path}; 404 when the home has no Desktop.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Route

from .replies import HttpError, guest_path, json_body, reply, text
from .session import HOME

_UPLOAD_CHUNK = 1 << 20


def list_tree(directory: str) -> dict:
    """OSWorld's directory tree: directories recurse, everything else is a file; an unreadable
    directory becomes {"error": message} in place."""
    tree: dict = {"type": "directory", "name": os.path.basename(directory), "children": []}
    try:
        for entry in os.listdir(directory):
            full = os.path.join(directory, entry)
            # Symlinked directories are not followed: a link loop must not recurse forever.
            if os.path.isdir(full) and not os.path.islink(full):
                tree["children"].append(list_tree(full))
            else:
                tree["children"].append({"type": "file", "name": entry})
    except OSError as exc:
        return {"error": str(exc)}
    return tree


def make_routes() -> list[Route]:
    async def get_file(request: Request):
        form = await request.form()
        raw = form.get("file_path")
        if not isinstance(raw, str) or not raw:
            raise HttpError(400, {"error": "file_path is required"})
        path = guest_path(raw)
        if not os.path.exists(path):
            raise HttpError(404, {"error": "File not found"})
        if not os.path.isfile(path):
            raise HttpError(400, {"error": f"Failed to serve file: {path} is not a regular file"})
        if not os.access(path, os.R_OK):
            raise HttpError(500, {"error": f"Failed to serve file: {path} is not readable"})
        return FileResponse(path, filename=os.path.basename(path))

    async def list_directory(request: Request):
        data = await json_body(request)
        if "path" not in data:
            raise HttpError(400, {"error": "Missing 'path' parameter"})
        start = guest_path(str(data["path"]))
        if not os.path.isdir(start):
            raise HttpError(400, {"error": "The provided path is not a directory"})
        return reply({"directory_tree": list_tree(start)})

    async def upload(request: Request):
        form = await request.form()
        raw, data = form.get("file_path"), form.get("file_data")
        if not isinstance(raw, str) or not raw or not isinstance(data, UploadFile):
            raise HttpError(400, {"error": "file_path and file_data are required"})
        path = Path(guest_path(raw))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as out:
                while chunk := await data.read(_UPLOAD_CHUNK):
                    out.write(chunk)
            size = path.stat().st_size
        except OSError as exc:
            path.unlink(missing_ok=True)  # never leave half a file behind
            raise HttpError(500, {"error": f"Failed to upload file: {exc}"}) from None
        return text(f"File Uploaded: {size} bytes")

    async def desktop_path(request: Request):
        desktop = HOME / "Desktop"
        if not desktop.is_dir():
            raise HttpError(404, {"error": "Unsupported operating system or desktop path not found"})
        return reply({"desktop_path": str(desktop)})

    return [
        Route("/file", get_file, methods=["POST"]),
        Route("/list_directory", list_directory, methods=["POST"]),
        Route("/setup/upload", upload, methods=["POST"]),
        Route("/desktop_path", desktop_path, methods=["POST"]),
    ]
