"""Cloudbox teacher steps beyond skills/kit/teach_web.py: the drive's folder tiles and breadcrumb (buttons
named by the folder) and the Shared with checkboxes (check-boxes named by the member)."""

from __future__ import annotations

from skills.kit.teach import click, named


def enter_folder(screen, name: str):
    """Click the folder tile `name` and wait until the breadcrumb ends with it."""
    tile = screen.find(named("push-button", name), timeout_s=10, what=f"the folder {name!r}")
    yield [click(tile)]
    screen.wait_until(
        lambda: any(
            e.role == "push-button" and e.name == name and e.y < tile.y - 10
            for e in screen.elements(named("push-button", name))
        ),
        timeout_s=10,
        what=f"the breadcrumb to reach {name!r}",
    )


def tick(screen, member: str):
    """Tick (or untick) `member` in the open file's Shared with list."""
    yield [click(screen.find(named("check-box", member), what=f"the Shared with box of {member!r}"))]


_ACTIVE = "{https://accessibility.ubuntu.example.org/ns/state}active"


def drive_on_top(screen) -> bool:
    """Whether the browser window showing Cloudbox is the active one (its frame's st:active state)."""
    import xml.etree.ElementTree as ET

    frames = ET.fromstring(screen.accessibility_tree()).iter("frame")
    return any("Cloudbox Drive" in (f.get("name") or "") and f.get(_ACTIVE) == "true" for f in frames)


def shared_on_tile(screen, member: str) -> None:
    """Wait until `member` shows among the open file's sharing on its tile (the change is saved)."""
    screen.wait_until(
        lambda: any(
            e.role == "static" and member in e.name and e.x < 1500 for e in screen.elements(lambda e: True)
        ),
        timeout_s=10,
        what=f"{member} on the file's tile",
    )
