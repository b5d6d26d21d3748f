"""Host-side steps the Issue Tracker GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest. The
tracker is open full-screen in Chromium; what to click is found in the accessibility tree, where
Chromium exports the page with screen coordinates. An issue opens as a dialog named by its key, its
fields are combo-boxes (Status, Assignee, Sprint, ...) and entries (Summary, "Add a comment") named
by their labels. A select lists its chosen option as a thin menu-item inside the closed box; clicking
it opens a popup whose options are taller menu-items, below or above the box. The browser window's
title names the project and view ("<project> board - Issue Tracker - Chromium").
"""

from skills.kit.teach import click, named

CLOSED_OPTION_H = 11  # the height Chromium gives the chosen option inside a closed select


def showing(screen, project, view):
    """Whether the tracker shows `view` ("board", "backlog", "issues") of the project named `project`."""
    return any(title.startswith(f"{project} {view} - ") for title in screen.windows())


def open_issue(screen, key):
    """Open issue `key` by typing it into the top bar's search and pressing Enter."""
    search = screen.find(
        lambda e: e.role == "entry" and e.name == "Search issues" and e.y < 60, what="the top bar search"
    )
    yield [click(search), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": key + "\n"}]
    screen.find(named("dialog", key), timeout_s=15, what=f"the dialog of {key}")


def close_issue(screen, key):
    yield [{"action": "key", "keys": ["Escape"]}]
    screen.wait_until(lambda: not screen.elements(named("dialog", key)), timeout_s=10, what=f"{key} to close")


def choose(screen, select, option):
    """Pick `option` in the select named `select`: click it open, then click the option in its popup."""
    box = screen.find(named("combo-box", select), what=f"the {select!r} select")
    yield [click(box)]
    item = screen.find(
        lambda e: e.role == "menu-item" and e.name == option and e.h > CLOSED_OPTION_H,
        timeout_s=10,
        what=f"{option!r} in the {select!r} list",
    )
    yield [click(item)]


def chosen(screen, select, option, **kw):
    """Wait until the select `select` shows `option` (the app re-renders it once the change is saved)."""

    def shows():
        boxes = screen.elements(named("combo-box", select))
        items = screen.elements(
            lambda e: e.role == "menu-item" and e.name == option and e.h <= CLOSED_OPTION_H
        )
        return any(abs(i.y - b.y) < 4 for b in boxes for i in items)

    screen.wait_until(shows, what=f"{select!r} to show {option!r}", **kw)


def comment(screen, text):
    """Type `text` into the open issue's comment box and press its Save."""
    box = screen.find(named("entry", "Add a comment"), what="the comment box")
    yield [click(box), {"action": "type", "text": text}]
    save = min(screen.elements(named("push-button", "Save")), key=lambda e: abs(e.y - (box.y + box.h)))
    yield [click(save)]
    screen.find(lambda e: e.role == "static" and e.name == text, timeout_s=10, what="the comment to show")


def scrolled_to(screen, match, *, what, at, tries=8):
    """The node `match` accepts, scrolling the page under `at` (a point) down until it shows."""
    for _ in range(tries):
        found = screen.elements(match)
        if found:
            return found[0]
        yield [{"action": "scroll", "coordinate": list(at), "pixels": -3}]  # negative: wheel steps down
    return screen.find(match, what=what, timeout_s=5)
