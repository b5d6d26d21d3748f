"""Host-side steps the Thunderbird GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
Thunderbird runs with GNOME_ACCESSIBILITY=1 (skills/thunderbird/app.yaml), so its whole UI is in the
accessibility tree with screen coordinates: the folder pane's folders are tree-items named
"<folder>" or "<folder>, N unread messages" (an account by its email, "Local Folders"); the message
list (card view) has one list-item (table-row when threaded) per message named "<From>, <date>, <subject>" with a push-button
"Message not starred" / "Message starred" inside; menus are `menu` (a submenu) and `menu-item`;
dialogs are windows of their own (frames titled "New Folder", "Message Filters", "Filter Rules");
Account Settings and the Address Book are tabs of the main window whose controls are named by their
labels ("Organization:", "First name").
"""

from __future__ import annotations

from skills.kit.teach import click

MAIN = "Mozilla Thunderbird"  # the main window's title ends with it
ROW_ROLES = ("list-item", "table-row")  # a message list row: a list-box's (flat) or a tree-table's (threaded)


def row_click(item, *, button: str = "left_click") -> dict:
    """A click on a folder pane row's own line (an expanded folder's tree-item spans its children)."""
    return {"action": button, "coordinate": [item.x + item.w // 2, item.y + min(item.h, 28) // 2]}


def folder_item(screen, name: str, *, within: str | None = None, timeout_s: float = 30.0):
    """The folder pane's tree-item of folder `name` (its name alone, or with its unread count); the
    first in the pane unless `within` names the account or "Local Folders" it must follow."""

    def matches(e) -> bool:
        return e.role == "tree-item" and (e.name == name or e.name.startswith(name + ", "))

    def after_parent():
        elements = screen.elements(lambda e: e.role == "tree-item")
        start = next((i for i, e in enumerate(elements) if within is None or e.name == within), None)
        if start is None:
            return None
        return next((e for e in elements[start + (within is not None) :] if matches(e)), None)

    found = []
    screen.wait_until(
        lambda: bool(found.append(after_parent()) or found[-1]),
        timeout_s=timeout_s,
        what=f"the folder {name!r}" + (f" in {within!r}" if within else ""),
    )
    return found[-1]


def open_folder(screen, name: str, *, within: str | None = None):
    """Click a folder in the folder pane and wait for the message list to show it."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    yield [row_click(folder_item(screen, name, within=within))]
    screen.find(lambda e: e.role == "heading" and e.name == name, what=f"the message list of {name!r}")


def named_item(screen, role: str, name: str, what: str | None = None, **kw):
    """The first on-screen node of `role` named exactly `name`."""
    return screen.find(lambda e: e.role == role and e.name == name, what=what or f"{name!r}", **kw)


def create_folder(screen, parent: str, name: str):
    """The parent's context menu > New Folder… (New Subfolder… on a folder), type the name, Create
    Folder; wait for the folder in the pane."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    item = named_item(screen, "tree-item", parent, f"the folder pane's {parent!r}")
    yield [row_click(item, button="right_click")]
    entry = screen.find(lambda e: e.role == "menu-item" and e.name.startswith("New "), what="New Folder…")
    yield [click(entry)]
    screen.wait_until(lambda: screen.has_window("New Folder"), what="the New Folder dialog")
    yield [click(named_item(screen, "entry", "Name:")), {"action": "type", "text": name}]
    screen.find(lambda e: e.role == "entry" and e.name == "Name:" and e.text == name, what="the typed name")
    yield [click(named_item(screen, "push-button", "Create Folder"))]
    screen.wait_until(lambda: not screen.has_window("New Folder"), what="the New Folder dialog to close")
    folder_item(screen, name, within=parent)


def message_rows(screen, text: str, *, count: int | None = None, wait: bool = True):
    """The message list's rows whose name (sender, date, subject) contains `text`, top to bottom;
    with `count`, waits until that many show."""

    def rows():
        return screen.elements(lambda e: e.role in ROW_ROLES and text in e.name and ", " in e.name)

    if not wait:
        return rows()
    found: list = []
    screen.wait_until(
        lambda: bool(
            found.clear() or found.extend(rows()) or (found and (count is None or len(found) == count))
        ),
        what=f"{count or 'the'} messages matching {text!r}",
    )
    return found


def select_rows(rows) -> list[dict]:
    """One batch: click the first row, Ctrl+click the others."""
    first, *more = rows
    return [click(first)] + [
        {"action": "left_click", "coordinate": list(r.center), "text": "ctrl"} for r in more
    ]


def context_menu(screen, element):
    """Right-click `element` and wait for its context menu."""
    yield [{"action": "right_click", "coordinate": list(element.center)}]
    screen.find(lambda e: e.role in ("menu-item", "menu"), what="the context menu")


def pick_menu(screen, path: list[str], item: str):
    """In an open menu, open the submenus named in `path` one by one and click the item `item`."""
    for name in path:
        menu = screen.find(
            lambda e, name=name: e.role == "menu" and e.name == name, what=f"the submenu {name!r}"
        )
        yield [click(menu)]
    yield [click(named_item(screen, "menu-item", item, f"the menu item {item!r}"))]


def open_filters(screen, account: str):
    """The account's context menu (its folder pane row) > Message Filters; wait for the window."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    yield [
        row_click(named_item(screen, "tree-item", account, f"the account {account!r}"), button="right_click")
    ]
    yield [click(named_item(screen, "menu-item", "Message Filters"))]
    screen.wait_until(lambda: screen.has_window("Message Filters"), what="the Message Filters window")


def open_account_settings(screen, account: str):
    """The account's context menu (its folder pane row) > Settings; wait for the Account Settings tab
    on the account's main page (its "Your Name:" field)."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    yield [
        row_click(named_item(screen, "tree-item", account, f"the account {account!r}"), button="right_click")
    ]
    yield [click(named_item(screen, "menu-item", "Settings"))]
    screen.wait_until(lambda: screen.has_window("Account Settings"), what="the Account Settings tab")
    named_item(screen, "entry", "Your Name:", "the account's main settings page")


def open_address_book(screen):
    """The Address Book tab (Ctrl+Shift+B); wait for its address book list."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    yield [{"action": "key", "keys": ["ctrl", "shift", "b"]}]
    screen.wait_until(lambda: screen.has_window("Address Book"), what="the Address Book tab")
    named_item(screen, "tree-item", "Personal Address Book", "the Personal Address Book")


_ACTIVE = "{https://accessibility.ubuntu.example.org/ns/state}active"


def thunderbird_active(screen) -> bool:
    """Whether Thunderbird's main window is the active one (its frame's st:active state; a terminal
    beside it is no accessible application)."""
    import xml.etree.ElementTree as ET

    frames = ET.fromstring(screen.accessibility_tree()).iter("frame")
    return any((f.get("name") or "").endswith(MAIN) and f.get(_ACTIVE) == "true" for f in frames)


def _alt_tab(screen, want: bool, what: str):
    """Alt+tab until Thunderbird's activity is `want` (openbox has no taskbar; a press may be lost
    under load, so a person would press again)."""
    for _ in range(4):
        yield [{"action": "key", "keys": ["alt", "tab"]}]
        try:
            screen.wait_until(lambda: thunderbird_active(screen) == want, timeout_s=8, what=what)
            return
        except Exception:  # noqa: BLE001 - the press did not switch: press again
            continue
    screen.wait_until(lambda: thunderbird_active(screen) == want, timeout_s=8, what=what)


def bring_thunderbird(screen):
    """From the terminal (on top), alt+tab to Thunderbird's main window."""
    screen.wait_until(lambda: screen.has_window(MAIN), what="Thunderbird's main window")
    if not thunderbird_active(screen):
        yield from _alt_tab(screen, True, "Thunderbird to come to the front")


def bring_terminal(screen):
    """From Thunderbird (on top), alt+tab to the terminal."""
    if thunderbird_active(screen):
        yield from _alt_tab(screen, False, "the terminal to come to the front")
