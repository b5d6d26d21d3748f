"""Screen routes: GET /screenshot, /cursor_position, /platform, /accessibility, /terminal and
POST /screen_size, /start_recording, /end_recording (OSWorld's shapes).

Screenshots come from mss (a shared-memory grab of the X server, a few ms) with the cursor drawn in,
as OSWorld's server pastes it; PNG at zlib level 1, because encoding dominates the latency and the
bytes stay on this machine. The accessibility tree is read by a11y.py in Debian's own Python (the
only one with pyatspi), so the server's venv needs no system packages.

Recording cannot be meaningful here: OSWorld's server records with ffmpeg's x11grab into an MP4,
and no desktop (sandbox, image or VM guest) has ffmpeg. Both recording routes answer at once with
OSWorld's reply for a platform without it (501, "Recording not yet implemented …"), so the
controller logs the failure instead of timing out.
"""

from __future__ import annotations

import json
import platform
import subprocess
import threading
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .replies import HttpError, reply, run_captured, text
from .session import DISPLAY, Session

A11Y_SCRIPT = Path(__file__).with_name("a11y.py")
SYSTEM_PYTHON = "/usr/bin/python3"
A11Y_TIMEOUT_S = 120.0
PNG_LEVEL = 1
NO_RECORDING = "Recording not yet implemented in this desktop: it has no ffmpeg (x11grab)."

_local = threading.local()


def grabber():
    """One mss instance per worker thread: an X connection must not be shared between threads."""
    instance = getattr(_local, "mss", None)
    if instance is None:
        import mss

        instance = _local.mss = mss.MSS(display=DISPLAY, with_cursor=True)
    return instance


def screenshot_png() -> bytes:
    import mss.tools

    grab = grabber()
    shot = grab.grab(grab.monitors[0])
    return mss.tools.to_png(shot.rgb, shot.size, level=PNG_LEVEL)


def _pointer_and_size() -> tuple[int, int, int, int]:
    from Xlib import display

    conn = display.Display(DISPLAY)
    try:
        screen = conn.screen()
        pointer = screen.root.query_pointer()
        return pointer.root_x, pointer.root_y, screen.width_in_pixels, screen.height_in_pixels
    finally:
        conn.close()


def dump_accessibility(session: Session, mode: str) -> str:
    """stdout of a11y.py (`tree`: the XML; `terminal`: JSON) or an HttpError saying why not."""
    if not session.accessibility:
        raise HttpError(
            503,
            {
                "status": "error",
                "message": "accessibility is not running in this desktop "
                "(started with accessibility off, or at-spi2-core is not installed)",
            },
        )
    try:
        code, out, err = run_captured(
            [SYSTEM_PYTHON, str(A11Y_SCRIPT), mode], shell=False, timeout_s=A11Y_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise HttpError(
            500, {"status": "error", "message": f"reading the AT-SPI tree took over {A11Y_TIMEOUT_S:g} s"}
        ) from None
    except OSError as exc:
        raise HttpError(500, {"status": "error", "message": f"cannot run {SYSTEM_PYTHON}: {exc}"}) from None
    if code != 0:
        raise HttpError(
            500, {"status": "error", "message": f"reading the AT-SPI tree failed: {err.strip()[-1500:]}"}
        )
    return out


def make_routes(session: Session) -> list[Route]:
    from starlette.concurrency import run_in_threadpool

    async def screenshot(request: Request):
        try:
            png = await run_in_threadpool(screenshot_png)
        except Exception as exc:
            raise HttpError(
                500, {"status": "error", "message": f"screenshot failed: {type(exc).__name__}: {exc}"}
            ) from None
        return Response(png, media_type="image/png")

    async def cursor_position(request: Request):
        x, y, _, _ = await run_in_threadpool(_pointer_and_size)
        return reply([x, y])

    async def screen_size(request: Request):
        _, _, width, height = await run_in_threadpool(_pointer_and_size)
        return reply({"width": width, "height": height})

    async def get_platform(request: Request):
        return text(platform.system())

    async def accessibility(request: Request):
        xml = await run_in_threadpool(dump_accessibility, session, "tree")
        return reply({"AT": xml})

    async def terminal(request: Request):
        # OSWorld reads the focused gnome-terminal through AT-SPI; `output` is null when none is active.
        found = json.loads(await run_in_threadpool(dump_accessibility, session, "terminal"))
        return reply({"output": found.get("output"), "status": "success"})

    async def recording(request: Request):
        return text(NO_RECORDING, 501)

    return [
        Route("/start_recording", recording, methods=["POST"]),
        Route("/end_recording", recording, methods=["POST"]),
        Route("/screenshot", screenshot, methods=["GET"]),
        Route("/cursor_position", cursor_position, methods=["GET"]),
        Route("/screen_size", screen_size, methods=["POST"]),
        Route("/platform", get_platform, methods=["GET"]),
        Route("/accessibility", accessibility, methods=["GET"]),
        Route("/terminal", terminal, methods=["GET"]),
    ]
