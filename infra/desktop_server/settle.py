"""Wait until the screen has painted: a window being mapped (what wmctrl sees) comes before its
content is drawn, and a screenshot taken in between shows an empty frame.

The rule: after the window appears, wait for the screen to change and then stay still for
QUIET_S; if it never changes within PATIENCE_S it was already painted. Changes smaller than
TOLERANCE_PX (a blinking text caret) count as still. A caller that saved the screen before it
started the app (`save_frame`) passes that frame as `before`: a screen that differs from it has
changed already, so a window that painted before the wait began costs QUIET_S, not PATIENCE_S.
"""

from __future__ import annotations

import time

QUIET_S = 0.5
PATIENCE_S = 2.5
POLL_S = 0.1
TOLERANCE_PX = 2500


def _frame(grabber):
    from PIL import Image

    shot = grabber.grab(grabber.monitors[0])
    return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")


def _changed(a, b) -> bool:
    from PIL import ImageChops

    box = ImageChops.difference(a, b).getbbox()
    return box is not None and (box[2] - box[0]) * (box[3] - box[1]) > TOLERANCE_PX


def save_frame(grabber, path: str) -> None:
    """The screen now, to `path` (PPM: written raw, in milliseconds), for a later `before`."""
    _frame(grabber).save(path, "PPM")


def load_frame(path: str):
    from PIL import Image

    with Image.open(path) as image:
        return image.convert("RGB")


def wait_until_painted(grabber, deadline: float, patience: float = PATIENCE_S, before=None) -> bool:
    """True once the screen settled (see module doc), False if `deadline` came first. `patience`:
    how long an unchanging screen is taken for one that painted before the wait began (a caller
    that knows its window paints at once, as xterm does, passes less). `before`: the screen saved
    before the app started, when the caller has it."""
    previous = _frame(grabber)
    seen_change = before is not None and before.size == previous.size and _changed(before, previous)
    still_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(POLL_S)
        current = _frame(grabber)
        now = time.monotonic()
        if _changed(previous, current):
            seen_change, still_since = True, now
        elif now - still_since >= (QUIET_S if seen_change else patience):
            return True
        previous = current
    return False
