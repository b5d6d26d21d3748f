"""Session-scoped uploads: names are generated here, never taken from the client.

The stored name is `<16 hex chars>-<ascii-safe original>`: unguessable, unique, free of separators,
so no client-supplied name can address a path outside the session's folder. The original name is
kept for display only, after removing directory parts and control characters.
"""

from __future__ import annotations

import mimetypes
import os
import re
import secrets
import shutil
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

from starlette.datastructures import UploadFile

from infra.hub.errors import BadRequestError, NotFoundError, PayloadTooLargeError

STORED_NAME = re.compile(r"^[0-9a-f]{16}-[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
# Served inline only when a browser cannot execute them; everything else downloads.
INLINE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain")


def display_name(original: str | None) -> str:
    """The client's file name minus directories and control characters (≤ 255 chars)."""
    name = (original or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch)[0] != "C")
    name = name.strip().lstrip(".")
    return name[:255] or "file"


def stored_name(display: str) -> str:
    """A fresh stored name that keeps a readable, ASCII-only hint of `display`."""
    ascii_name = unicodedata.normalize("NFKD", display).encode("ascii", "ignore").decode()
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name).strip("._-")[:80] or "file"
    return f"{secrets.token_hex(8)}-{safe}"


async def save_uploads(
    uploads: list[UploadFile], folder: Path, url_prefix: str, *, max_files: int, max_bytes: int
) -> list[dict[str, Any]]:
    """Write each upload into `folder` (atomically) and describe it as the /upload contract says."""
    if not uploads:
        raise BadRequestError(
            "no file in the multipart body", hint='send multipart/form-data with a "file" field'
        )
    if len(uploads) > max_files:
        raise BadRequestError(
            f"{len(uploads)} files in one upload", hint=f"send at most {max_files} per request"
        )
    described = []
    for upload in uploads:
        original = display_name(upload.filename)
        name = stored_name(original)
        size = _copy_atomically(upload, folder / name, max_bytes)
        content_type = upload.content_type or mimetypes.guess_type(original)[0] or "application/octet-stream"
        described.append(
            {
                "original_name": original,
                "stored_name": name,
                "size": size,
                "content_type": content_type,
                "url": f"{url_prefix}/{name}",
            }
        )
    return described


def _copy_atomically(upload: UploadFile, target: Path, max_bytes: int) -> int:
    upload.file.seek(0, os.SEEK_END)
    size = upload.file.tell()
    if size > max_bytes:
        raise PayloadTooLargeError(
            f"file {upload.filename!r} is {size} bytes",
            hint=f"upload files under {max_bytes} bytes (CUAGYM_HUB_MAX_UPLOAD_BYTES)",
        )
    upload.file.seek(0)
    fd, tmp = tempfile.mkstemp(prefix=".upload.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(upload.file, out)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return size


def resolve_stored(folder: Path | None, name: str) -> Path:
    """The file `name` inside `folder`, or NotFoundError; only generated names ever resolve."""
    if folder is None or not STORED_NAME.match(name):
        raise NotFoundError(f"no file {name!r} for this session", hint="use the url returned by /upload")
    path = folder / name
    if not path.is_file():
        raise NotFoundError(f"no file {name!r} for this session", hint="use the url returned by /upload")
    return path


def content_disposition(path: Path) -> tuple[str, str]:
    """(media type, disposition) to serve `path` with: inline for inert types, attachment otherwise."""
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    disposition = "inline" if media in INLINE_TYPES else "attachment"
    return media, disposition
