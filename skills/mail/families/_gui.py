"""Host-side steps the Mail GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. Mail
is open full-screen in Chromium; what to click is found in the accessibility tree, where Chromium
exports the page with screen coordinates: folders and labels in the sidebar are links named
"<name>" or "<name> <unread count>", each list row has a check-box "Select <subject>" and statics
for its sender and subject, the buttons are push-buttons named by their aria-label ("Archive",
"Label", "Move to", "Labels", "Reply", "Forward", "Send"), menus hold menu-items, and the compose
window's fields are entries ("Cc", "Subject", "Message body"), To a combo-box. A toast shows for
seconds at the bottom centre after most actions; nothing clicked here sits there.
"""

import xml.etree.ElementTree as ET

from skills.kit.teach import button, click, named

LIST_X = (232, 632)  # the message list column (app.css); the reading pane is right of it


def search(screen, text):
    """Show only the messages of the current box that match `text` (the search box filters as you type)."""
    box = screen.find(named("entry", "Search mail"), what="the search box")
    yield [click(box), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": text}]


def rows(screen, label=None):
    """The subjects of the list's rows on screen (their check-boxes are named "Select <subject>"),
    or with `label`, of those rows showing that label's chip."""
    boxes = screen.elements(
        lambda e: e.role == "check-box" and e.name.startswith("Select ") and e.name != "Select all"
    )
    if label is not None:  # a row's chip sits in its snippet line, within the row's 80 px
        chips = [e for e in screen.elements(named("static", label)) if LIST_X[0] <= e.x < LIST_X[1]]
        boxes = [b for b in boxes if any(0 < c.y - b.y < 80 for c in chips)]
    return [e.name.removeprefix("Select ") for e in boxes]


def wait_rows(screen, subjects, what, *, label=None):
    """Wait until the list shows exactly the messages with `subjects` (in any order), or with
    `label`, until exactly those rows carry its chip."""
    screen.wait_until(lambda: sorted(rows(screen, label)) == sorted(subjects), timeout_s=15, what=what)


def open_message(screen, subject):
    """Open the list row with `subject` in the reading pane (clicking its subject line)."""
    row = screen.find(
        lambda e: e.role == "static" and e.name == subject and LIST_X[0] <= e.x < LIST_X[1],
        what=f"the row {subject!r} in the list",
    )
    yield [click(row)]
    screen.find(
        lambda e: e.role == "heading" and e.name.startswith(subject) and e.x >= LIST_X[1],
        timeout_s=15,
        what=f"{subject!r} open in the reading pane",
    )


def menu_pick(screen, opener, item):
    """Click the button `opener` and then its menu's `item` (a menu-item, matched by name)."""
    yield [click(button(screen, opener))]
    yield [click(screen.find(named("menu-item", item), what=f"{item!r} in the {opener} menu"))]


def respond(screen, how):
    """Click the open message's `how` button ("Reply", "Reply all", "Forward") and wait for the
    compose window it opens (a reply has the cursor in the body, above the quote; a forward in To)."""
    yield [click(button(screen, how))]
    screen.find(named("dialog", "Compose message"), timeout_s=15, what="the compose window")


def fill(screen, field, text):
    """Click the compose window's field `field` at its start and type `text` there. To is a
    combo-box (it suggests contacts in a popup, which Escape closes); the others are entries."""
    entry = screen.find(
        lambda e: e.role in ("entry", "combo-box") and e.name == field,
        what=f"the compose window's {field} field",
    )
    at = [entry.x + 20, entry.center[1]]
    yield [{"action": "left_click", "coordinate": at}, {"action": "type", "text": text}]
    if entry.role == "combo-box":
        yield [{"action": "key", "keys": ["escape"]}]


def send(screen):
    """Send the message in the compose window and wait until it has closed."""
    yield [click(button(screen, "Send"))]
    screen.wait_until(
        lambda: not screen.elements(named("dialog", "Compose message")),
        timeout_s=15,
        what="the message to be sent",
    )


_ACTIVE = "{https://accessibility.ubuntu.example.org/ns/state}active"


def mail_on_top(screen):
    """Whether the browser window showing Mail is the active one (its frame's st:active state)."""
    frames = ET.fromstring(screen.accessibility_tree()).iter("frame")
    return any(
        (f.get("name") or "").endswith(" - Mail - Chromium") and f.get(_ACTIVE) == "true" for f in frames
    )
