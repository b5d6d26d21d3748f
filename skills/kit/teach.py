"""Host-side building blocks of GUI teachers (`demonstrate(P, screen)` in a family's module).

A teacher yields batches of computer_use calls in screen pixels and finds what it acts on through
`screen` (tasks/rollout/scripted.py TeacherScreen: window titles, the accessibility tree as
`Element(role, name, text, x, y, w, h)`). These helpers are the pieces every app's teachers use;
what is particular to one app lives in its `skills/<app>/families/_gui.py`. Nothing here is shipped
to a guest (render.py ships only guest functions).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from infra.errors import ConfigError

_ACTIVE = "{https://accessibility.ubuntu.example.org/ns/state}active"  # a frame's st:active state


def click(element) -> dict:
    """A left click on the centre of an accessible node."""
    return {"action": "left_click", "coordinate": list(element.center)}


def hover(element) -> dict:
    return {"action": "mouse_move", "coordinate": list(element.center)}


def named(role: str, name: str):
    """A match for `screen.find`: the node of this role with exactly this name."""
    return lambda e: e.role == role and e.name == name


def button(screen, name: str, **kw):
    """The push-button named `name` (its text or aria-label)."""
    return screen.find(named("push-button", name), what=f"the {name!r} button", **kw)


def toast(screen, text: str, **kw):
    """Wait for the notice `text` an app shows after a change was saved."""
    return screen.find(named("static", text), what=f"the notice {text!r}", **kw)


def in_dialog(screen, role: str, name: str):
    """The node `role`/`name` inside the open dialog (the page behind may hold a namesake)."""
    box = screen.find(lambda e: e.role == "dialog", what="the dialog")

    def inside(e) -> bool:
        return (
            e.role == role
            and e.name == name
            and box.y <= e.y < box.y + box.h
            and box.x <= e.x < box.x + box.w
        )

    return screen.find(inside, what=f"{name!r} in the dialog")


def fill_date(screen, label: str, iso: str) -> list[dict]:
    """Type the ISO date `iso` into Chromium's date field `label`: its month segment first, then the
    digits (Chromium moves to the next segment once one is complete, in the en-US order MM/DD/YYYY)."""
    month = screen.find(named("spin-button", f"Month {label}"), what=f"the month of {label!r}")
    year, mm, dd = iso.split("-")
    return [click(month), {"action": "type", "text": f"{mm}{dd}{year}"}]


def save_keeping_format(screen):
    """Save an Office Open XML document in LibreOffice (ctrl+s), answer its keep-format question
    with the default button (keep .xlsx/.docx/.pptx), and give the file a moment to reach disk."""
    yield [{"action": "key", "keys": ["ctrl", "s"]}]
    screen.wait_until(lambda: screen.has_window("Confirm File Format"), what="the keep-format question")
    yield [{"action": "key", "keys": ["enter"]}]
    screen.wait_until(lambda: not screen.has_window("Confirm File Format"), what="the save to finish")
    yield [{"action": "wait", "time": 1.0}]  # the file is written after the question closes


def chromium_on_top(screen):
    """Whether a Chromium window is the active one (its frame's st:active state)."""
    frames = ET.fromstring(screen.accessibility_tree()).iter("frame")
    return any((f.get("name") or "").endswith(" - Chromium") and f.get(_ACTIVE) == "true" for f in frames)


def switch_to_chromium(screen):
    """alt+tab (the desktop has no taskbar) until Chromium's window is the active one: a cross-app
    teacher comes back to the browser from the terminal or a document this way."""
    for attempt in range(3):
        yield [{"action": "key", "keys": ["alt", "tab"]}]
        try:
            screen.wait_until(
                lambda: chromium_on_top(screen), timeout_s=20, what="Chromium to come to the front"
            )
            return
        except ConfigError:
            if attempt == 2:
                raise
