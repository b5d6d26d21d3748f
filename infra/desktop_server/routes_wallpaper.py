"""Wallpaper routes: POST /setup/change_wallpaper and POST /wallpaper (OSWorld's shapes).

An OSWorld guest keeps its wallpaper in GNOME's `picture-uri` and serves that file. Here there is no
GNOME: the wallpaper is the X root window's background, which openbox leaves alone.
- /setup/change_wallpaper {path}: scales the image to the screen and paints it as the root window's
  background pixmap (it shows wherever no window covers the screen, in screenshots too), then
  remembers the file. 400 "Path not supplied!", 404 "File not found: …", 422 when the file is not an
  image; "Wallpaper changed successfully" on success.
- /wallpaper: the file last set, as an image. Before any change, the desktop's own background (a
  solid colour) as a PNG of the screen's size, so a fresh desktop has a wallpaper as a fresh VM has.
"""

from __future__ import annotations

import io
import mimetypes
import threading
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .replies import HttpError, guest_path, json_body, text
from .session import DISPLAY

# Xvfb's root window is black unless told otherwise (-retro draws the old weave).
DEFAULT_BACKGROUND = (0, 0, 0)
_MAX_REQUEST_BYTES = 200_000  # under the core protocol's 256 KiB request limit (no BIG-REQUESTS here)


class Wallpaper:
    """The current wallpaper of one desktop: None until changed (then the default background)."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self._lock = threading.Lock()

    def change(self, path: Path) -> None:
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(path) as image:
                rgb = image.convert("RGB")
        except (UnidentifiedImageError, OSError) as exc:
            raise HttpError(
                422, f"Failed to change wallpaper. Error: {path} is not an image ({exc})"
            ) from None
        with self._lock:
            paint_root(rgb)
            self.path = path

    def image(self) -> tuple[bytes, str]:
        """The wallpaper's bytes and media type."""
        with self._lock:
            path = self.path
        if path is None:
            return default_png(), "image/png"
        try:
            data = path.read_bytes()
        except OSError:
            raise HttpError(404, "Wallpaper file not found") from None
        return data, mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def _screen():
    from Xlib import display

    conn = display.Display(DISPLAY)
    return conn, conn.screen()


def default_png() -> bytes:
    from PIL import Image

    conn, screen = _screen()
    size = (screen.width_in_pixels, screen.height_in_pixels)
    conn.close()
    out = io.BytesIO()
    Image.new("RGB", size, DEFAULT_BACKGROUND).save(out, format="PNG")
    return out.getvalue()


def paint_root(image) -> None:
    """Make `image` (PIL, RGB) the root window's background, scaled to the screen."""
    from PIL import Image
    from Xlib import X

    conn, screen = _screen()
    try:
        width, height = screen.width_in_pixels, screen.height_in_pixels
        # ZPixmap at depth 24 is 32 bits per pixel, blue first on a little-endian server.
        pixels = (
            image.resize((width, height), Image.Resampling.LANCZOS).convert("RGBX").tobytes("raw", "BGRX")
        )
        root = screen.root
        pixmap = root.create_pixmap(width, height, screen.root_depth)
        gc = pixmap.create_gc()
        rows = max(1, _MAX_REQUEST_BYTES // (width * 4))
        for top in range(0, height, rows):
            strip = min(rows, height - top)
            chunk = pixels[top * width * 4 : (top + strip) * width * 4]
            pixmap.put_image(gc, 0, top, width, strip, X.ZPixmap, screen.root_depth, 0, chunk)
        root.change_attributes(background_pixmap=pixmap)
        root.clear_area(0, 0, width, height)
        # The root window holds its own reference to its background: ours can go (and with it the
        # previous wallpaper's pixmap), so repeated changes never pile up screen-sized pixmaps.
        gc.free()
        pixmap.free()
        conn.sync()
    finally:
        conn.close()


def make_routes() -> list[Route]:
    from starlette.concurrency import run_in_threadpool

    wallpaper = Wallpaper()

    async def change_wallpaper(request: Request):
        data = await json_body(request)
        raw = data.get("path")
        if not raw:
            raise HttpError(400, "Path not supplied!")
        path = Path(guest_path(str(raw)))
        if not path.is_file():
            raise HttpError(404, f"File not found: {path}")
        await run_in_threadpool(wallpaper.change, path)
        return text("Wallpaper changed successfully")

    async def get_wallpaper(request: Request):
        data, media_type = await run_in_threadpool(wallpaper.image)
        return Response(data, media_type=media_type)

    return [
        Route("/setup/change_wallpaper", change_wallpaper, methods=["POST"]),
        Route("/wallpaper", get_wallpaper, methods=["POST"]),
    ]
