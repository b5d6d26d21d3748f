"""Host-side steps the Impress GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. Slides
are reached with the keyboard: in the main view, with nothing selected, Home shows slide 1 and Page
Down the next one (clicks in the slide pane do not select a slide under xdotool). What the screen
shows is read back from the accessibility tree, once per look (a tree is slow to fetch): the slide
pane's thumbnails are panels named after the slide titles, the main view's page is a panel
"PageShape: <title>" (" (Notes)" added in Notes view), and the notes box is the panel styled "Notes".
"""

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from skills.kit.teach import save_keeping_format

_NS = "{https://accessibility.ubuntu.example.org/ns/"  # infra/desktop_server/a11y.py
FOCUSED, STYLE = _NS + "state}focused", _NS + "attributes}style"


@dataclass(frozen=True)
class Look:
    """What Impress shows at one moment."""

    pane: list[str]  # slide titles in the slide pane, top to bottom (every thumbnail of a short deck)
    slide: str | None  # title of the slide in the main view
    notes_view: bool  # the main view is View > Notes
    notes: str  # text of the notes box (Notes view), paragraphs joined by newlines
    editing_notes: bool  # the text cursor is in the notes box


def look(screen):
    root = ET.fromstring(screen.accessibility_tree())
    pane, page, box = [], None, ET.Element("panel")
    for node in root.iter():
        name = node.get("name") or ""
        if node.tag == "document-frame" and name == "Slides View":
            pane = [panel.get("name") or "" for panel in node if panel.tag == "panel"]
        elif node.tag == "panel" and name.startswith("PageShape: ") and page is None:
            page = name.removeprefix("PageShape: ")
        elif node.tag == "panel" and node.get(STYLE) == "Notes":  # "PresentationNotes" or the file's name
            box = node
    paragraphs = list(box.iter("paragraph"))
    return Look(
        pane=pane,
        slide=page.removesuffix(" (Notes)") if page is not None else None,
        notes_view=(page or "").endswith(" (Notes)"),
        notes="\n".join((p.text or "").strip() for p in paragraphs),
        editing_notes=any(p.get(FOCUSED) == "true" for p in paragraphs),
    )


def wait_look(screen, check, *, what, timeout_s=30.0):
    """Look until `check(look)` holds and return that look; the run fails naming `what` on timeout."""
    seen = []
    screen.wait_until(lambda: check(seen.append(look(screen)) or seen[-1]), timeout_s=timeout_s, what=what)
    return seen[-1]


def go_to_slide(screen, number, title):
    """Show slide `number` (1-based), which must be titled `title`, in the main view."""
    presses = [{"action": "key", "keys": ["escape"]}] * 2 + [{"action": "key", "keys": ["home"]}]
    presses += [{"action": "key", "keys": ["pagedown"]}] * (number - 1)
    for start in range(0, len(presses), 10):  # a model step holds at most 10 calls
        yield presses[start : start + 10]
    wait_look(screen, lambda seen: seen.slide == title, timeout_s=10, what=f'slide {number} "{title}"')


def slide_menu(*keys):
    """One command of the Slide menu (Alt+L), by its menu accelerators."""
    return [{"action": "key", "keys": ["alt", "l"]}, *({"action": "key", "keys": [k]} for k in keys)]


def view_menu(key):
    """View > Normal ("n") or View > Notes ("e")."""
    return [{"action": "key", "keys": ["alt", "v"]}, {"action": "key", "keys": [key]}]


def save_keeping_pptx(screen):
    """Ctrl+S, then the default button of the keep-format question ("Use PowerPoint 2007-365!")."""
    yield from save_keeping_format(screen)
