"""Host-side GUI teacher steps for the app engine's web apps (infra/hub/engine, static/engine/).

Every engine app draws the same accessible vocabulary, so one set of steps teaches them all: views
are links in the navigation named by their label; a record in any list, board or calendar is a link
named by its title; an open record's detail pane labels each control with its field's label
(combo-boxes for enums and refs, entries for text, numbers and tags); actions are push-buttons named
by their label; "New <label>" opens a dialog of that name whose Create button is "Create <label>".
The page's title, and so the browser window's, is "<record> - <view> - <app title>" with a record
open, "<view> - <app title>" without. A select's chosen option is a thin menu-item inside the closed
box; its popup's options are taller menu-items.
"""

from __future__ import annotations

from infra.errors import ConfigError
from skills.kit.teach import click, named

CLOSED_OPTION_H = 11  # the height Chromium gives the chosen option inside a closed select


def showing(screen, *parts: str) -> bool:
    """Whether the page's title starts with `parts` joined by " - " (a view, or a record and its view)."""
    prefix = " - ".join(parts) + " - "
    return any(title.startswith(prefix) for title in screen.windows())


def open_view(screen, view: str):
    """Click the navigation link of `view` (its label) and wait for the page to show it."""
    if showing(screen, view):
        return
    link = screen.find(
        lambda e: e.role == "link" and e.name == view and (e.x < 230 or e.y < 60),
        what=f"the {view!r} view link",
    )
    yield [click(link)]
    screen.wait_until(lambda: showing(screen, view), timeout_s=15, what=f"the {view!r} view")


def search(screen, text: str):
    """Type `text` into the top bar's search box (it filters the view's records as you type), and see
    that it holds just that: on a loaded machine the page can re-render the box between the click and
    the typing (the select-all then misses, and the query lands after the last one), so a box that
    holds anything else is typed into once more."""

    def box():
        return screen.find(
            lambda e: e.role == "entry" and e.name == "Search" and e.y < 60, what="the search box"
        )

    for attempt in (1, 2):
        yield [click(box()), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": text}]
        try:
            screen.wait_until(
                lambda: box().text == text, timeout_s=5, what=f"the search box to hold {text!r}"
            )
            return
        except ConfigError:
            if attempt == 2:
                raise


def open_record(screen, view: str, title: str, *, query: str | None = None):
    """Open the record named `title` from the list of the view shown (searching for it first, so a
    long list needs no scrolling; `query`, e.g. its id, where titles repeat), then wait for its
    detail pane."""
    yield from search(screen, query or title)
    link = screen.find(named("link", title), timeout_s=10, what=f"the record {title!r} in the list")
    yield [click(link)]
    screen.wait_until(lambda: showing(screen, title, view), timeout_s=15, what=f"{title!r} to open")


def choose(screen, label: str, option: str):
    """Pick `option` in the select labelled `label`: click it open, then click the option."""
    box = screen.find(named("combo-box", label), what=f"the {label!r} select")
    yield [click(box)]
    item = screen.find(
        lambda e: e.role == "menu-item" and e.name == option and e.h > CLOSED_OPTION_H,
        timeout_s=10,
        what=f"{option!r} in the {label!r} list",
    )
    yield [click(item)]
    chosen(screen, label, option)


def chosen(screen, label: str, option: str, **kw) -> None:
    """Wait until the select `label` shows `option` (the page re-renders once the change is saved)."""

    def shows():
        boxes = screen.elements(named("combo-box", label))
        items = screen.elements(
            lambda e: e.role == "menu-item" and e.name == option and e.h <= CLOSED_OPTION_H
        )
        return any(abs(i.y - b.y) < 4 for b in boxes for i in items)

    screen.wait_until(shows, what=f"{label!r} to show {option!r}", **{"timeout_s": 10, **kw})


def type_field(screen, label: str, text: str):
    """Replace the text of the entry labelled `label` and commit it (Enter; Tab for a text area)."""
    box = screen.find(named("entry", label), what=f"the {label!r} field")
    yield [click(box), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": text}]
    yield [{"action": "key", "keys": ["Tab"]}]


def press(screen, label: str):
    """Click the push-button named `label` (an action, Create, Delete, …)."""
    yield [click(screen.find(named("push-button", label), what=f"the {label!r} button"))]


def compose(screen, what: str, text: str):
    """Write `text` in the detail pane's "Add <what>" box and press its "Add <what>" button."""
    box = screen.find(named("entry", f"Add {what}"), what=f"the 'Add {what}' box")
    yield [click(box), {"action": "type", "text": text}]
    yield from press(screen, f"Add {what}")
    screen.find(lambda e: e.role == "static" and e.name == text, timeout_s=10, what=f"the new {what} to show")


def settle():
    """The app saves each change to the hub as it is made; give the last write a moment to land."""
    return [{"action": "wait", "time": 1.0}]
