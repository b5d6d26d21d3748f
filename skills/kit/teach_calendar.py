"""Host-side teacher steps for engine apps with date-driven views (calendar and inbox archetypes):
dates typed into the detail pane or a dialog, numbers, and how instructions write a day.

The engine saves a date typed into a detail pane when the field loses focus (Chromium fires `change`
per typed segment, and saving mid-date would re-render the pane under the typing), so `set_date`
leaves the field with Tab.
"""

from __future__ import annotations

from skills.kit.teach import click, fill_date, named

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]  # fmt: skip


def day_text(iso: str) -> str:
    """ "2024-06-21" as the instructions write it: "June 21"."""
    _, month, day = iso.split("-")
    return f"{MONTHS[int(month) - 1]} {int(day)}"


def set_date(screen, label: str, iso: str):
    """Type `iso` into the date field `label`, leave it with Enter, and wait for the field again (the
    pane re-renders once the date is saved)."""
    yield fill_date(screen, label, iso)
    yield [{"action": "key", "keys": ["enter"]}]
    screen.find(named("spin-button", f"Month {label}"), timeout_s=10, what=f"the {label!r} field again")


def type_number(screen, label: str, value) -> list[dict]:
    """Replace the number in the field `label` (Chromium exposes a number input as a spin-button or
    an entry) and commit it with Tab."""
    box = screen.find(
        lambda e: e.role in ("spin-button", "entry") and e.name == label, what=f"the {label!r} number field"
    )
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return [
        click(box),
        {"action": "key", "keys": ["ctrl", "a"]},
        {"action": "type", "text": text},
        {"action": "key", "keys": ["Tab"]},
    ]


def in_dialog_scrolled(screen, role, name: str):
    """The node `role` (or one of a tuple of roles) named `name` inside the open dialog, wheeling the
    dialog down until it is in view (a long form scrolls inside the dialog).
    Use as `node = yield from in_dialog_scrolled(...)`."""
    roles = (role,) if isinstance(role, str) else tuple(role)
    for _ in range(8):
        box = screen.find(lambda e: e.role == "dialog", what="the dialog")
        nodes = screen.elements(lambda e: e.role in roles and e.name == name)
        inside = [
            n for n in nodes if box.x <= n.x < box.x + box.w and box.y <= n.y and n.y + n.h <= box.y + box.h
        ]
        if inside:
            return inside[0]
        yield [{"action": "scroll", "coordinate": list(box.center), "pixels": -3}]  # negative: wheel down
    raise RuntimeError(f"{name!r} never scrolled into the dialog")


def dialog_type(screen, label: str, value, roles=("entry", "spin-button")):
    """Replace the value of the dialog's field `label` (scrolled into view first) and leave it with Tab."""
    box = yield from in_dialog_scrolled(screen, roles, label)
    text = f"{value:g}" if isinstance(value, float) else str(value)
    yield [
        click(box),
        {"action": "key", "keys": ["ctrl", "a"]},
        {"action": "type", "text": text},
        {"action": "key", "keys": ["Tab"]},
    ]
