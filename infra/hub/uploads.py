"""Session-scoped uploads: names are generated here, never taken from the client.

The stored name is `<16 hex chars>-<ascii-safe original>`, the hex being the start of the
content's SHA-256: the same file uploaded twice gets the same name (what CUA-Gym-Hub clients
expect), different contents never share one, and the name is free of separators, so no
client-supplied name can address a path outside the session's folder. Only the session that
uploaded a file can read it (and through a pinned route only that env's session), so a name that
can be computed from the content gives nothing away. The original name is kept for display only,
after removing directory parts and control characters.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
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


def safe_suffix(display: str) -> str:
    """A readable, ASCII-only hint of `display` for the stored name."""
    ascii_name = unicodedata.normalize("NFKD", display).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name).strip("._-")[:80] or "file"


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
        name, size = _store(upload, folder, safe_suffix(original), max_bytes)
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


def _store(upload: UploadFile, folder: Path, suffix: str, max_bytes: int) -> tuple[str, int]:
    """Copy the upload into `folder` under its content-derived name, atomically: (name, size)."""
    upload.file.seek(0, os.SEEK_END)
    size = upload.file.tell()
    if size > max_bytes:
        raise PayloadTooLargeError(
            f"file {upload.filename!r} is {size} bytes",
            hint=f"upload files under {max_bytes} bytes (CUAGYM_HUB_MAX_UPLOAD_BYTES)",
        )
    upload.file.seek(0)
    digest = hashlib.sha256()
    fd, tmp = tempfile.mkstemp(prefix=".upload.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            while chunk := upload.file.read(1 << 20):
                digest.update(chunk)
                out.write(chunk)
        name = f"{digest.hexdigest()[:16]}-{suffix}"
        os.replace(tmp, folder / name)  # the same bytes again replace a file with the same bytes
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return name, size


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
