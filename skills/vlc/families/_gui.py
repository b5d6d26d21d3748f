"""Host-side steps the VLC GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
VLC 3's Qt interface joins the accessibility tree (the app's command sets QT_ACCESSIBILITY=1): menus
are menu-items, dialogs are `dialog` nodes named by their title, fields are `text` nodes named by
their label ("File name:", "Directory", "Record directory or filename"), check boxes and buttons by
their text, combo boxes by their current value. The transport buttons under the video have no names;
the teachers use VLC's shortcuts instead (Ctrl+O open, Ctrl+P preferences, Ctrl+R convert, Ctrl+T
jump to a time, Shift+S snapshot, Ctrl+L playlist, Ctrl+Y save playlist, Space play/pause).

Two quirks of Qt's tree: the items of a closed combo-box popup stay in the tree (at 0,0 before it
was ever opened, at their last place after), so a combo box is set by typing into its open popup and
read back by its name; and a scroll area's widgets below its fold keep boxes past the viewport's
bottom, so a teacher wheels the area until the widget lies inside it before clicking.
"""

from infra.errors import ConfigError
from skills.kit.teach import click, named

MAIN = "VLC media player"


def key(*keys):
    return {"action": "key", "keys": list(keys)}


def typed(text):
    return {"action": "type", "text": text}


def inside(element, box) -> bool:
    return box.x <= element.x < box.x + box.w and box.y <= element.y < box.y + box.h


def dialog(screen, title, **kw):
    """The open dialog titled `title` (waits for it)."""
    return screen.find(named("dialog", title), what=f"the {title!r} dialog", **kw)


def wait_gone(screen, title, *, timeout_s=30.0):
    screen.wait_until(lambda: not screen.has_window(title), timeout_s=timeout_s, what=f"{title!r} to close")


def main_window(screen):
    screen.wait_until(lambda: screen.has_window(MAIN), what="VLC's window")


def fill(screen, label, value, *, within=None):
    """Replace the text of the field labelled `label` (in the dialog `within`, when given)."""
    field = screen.find(
        lambda e: e.role == "text" and e.name == label and (within is None or inside(e, within)),
        what=f"the {label!r} field",
    )
    yield [click(field), key("ctrl", "a"), typed(value)]
    screen.wait_until(
        lambda: any(e.text == value for e in screen.elements(lambda e: e.role == "text" and e.name == label)),
        timeout_s=10,
        what=f"{value!r} in the {label!r} field",
    )


def choose(screen, match, value, *, what, tries=3):
    """Set the combo box `match` finds to the item `value`: open its popup, type the item's text (Qt
    selects the item it starts), Enter; read the box's name back and try again when it differs."""
    for _ in range(tries):
        box = screen.find(match, what=what)
        if box.name == value:
            return
        yield [click(box)]
        yield [typed(value), key("Return")]
        try:
            screen.wait_until(lambda: screen.find(match, what=what).name == value, timeout_s=3, what=what)
            return
        except ConfigError:
            yield [key("Escape")]
    raise ConfigError(f"the teacher could not set {what} to {value!r}", hint="look at the last screenshot")


def file_dialog_path(screen, path, *, title=None):
    """In the open Qt file dialog (titled `title`, else any), type `path` as the file name and accept."""
    if title is not None:
        dialog(screen, title)
    field = screen.find(named("text", "File name:"), what="the file dialog's File name field")
    yield [click(field), key("ctrl", "a"), typed(path)]
    yield [key("Return")]


def open_preferences(screen, page=None):
    """Tools > Preferences (Ctrl+P), on the simple view's `page` (Interface, Audio, Video, ...)."""
    main_window(screen)
    yield [key("ctrl", "p")]
    screen.wait_until(
        lambda: screen.has_window("Simple Preferences") or screen.has_window("Advanced Preferences"),
        what="the Preferences dialog",
    )
    if page is not None:
        if screen.has_window("Advanced Preferences"):
            yield [click(screen.find(named("radio-button", "Simple"), what="the Simple view"))]
        yield [click(screen.find(named("check-box", page), what=f"the {page} page"))]


def advanced_panel(screen, search, node):
    """In Preferences, switch to All (the advanced view), filter the tree with `search` and open the
    tree node `node` (e.g. "Qt")."""
    if not screen.has_window("Advanced Preferences"):
        yield [click(screen.find(named("radio-button", "All"), what="the All view"))]
        screen.wait_until(lambda: screen.has_window("Advanced Preferences"), what="the advanced view")
    prefs = dialog(screen, "Advanced Preferences")
    field = screen.find(
        lambda e: e.role == "text" and inside(e, prefs) and e.y < prefs.y + 40, what="the tree's search field"
    )
    yield [click(field), key("ctrl", "a"), typed(search)]
    yield [click(screen.find(named("table-cell", node), what=f"the {node!r} tree node"))]


def reveal(screen, match, *, what, tries=25):
    """The widget `match` finds, once the preferences' scroll area has been wheeled so that it lies
    inside the area's viewport (the vertical scroll bar right of it spans the viewport). The wheel
    turns over a label or check box of the area, never over a value widget (a wheel over a spin box
    or a combo box changes its value)."""
    for _ in range(tries):
        element = screen.find(match, what=what)
        seen = screen.elements()
        bars = [e for e in seen if e.role == "scroll-bar" and e.h > 3 * e.w and e.x > element.x]
        if not bars:
            return element
        bar = min(bars, key=lambda b: b.x - element.x)
        if bar.y <= element.y and element.y + element.h <= bar.y + bar.h:
            return element
        handles = [
            e
            for e in seen
            if e.role in ("label", "check-box")
            and e.name
            and e.x < bar.x
            and bar.y <= e.y <= bar.y + bar.h - e.h
        ]
        spot = min(handles, key=lambda e: e.x)
        step = -3 if element.y + element.h > bar.y + bar.h else 3
        yield [{"action": "scroll", "coordinate": [spot.x + 3, spot.center[1]], "pixels": step}]
    raise ConfigError(f"the teacher could not scroll to {what}", hint="look at the last screenshot")


def save_preferences(screen):
    """Press the Preferences' Save button and wait for the dialog to close (VLC writes vlcrc then)."""
    yield [click(screen.find(named("push-button", "Save"), what="the Preferences' Save button"))]
    screen.wait_until(
        lambda: not screen.has_window("Simple Preferences") and not screen.has_window("Advanced Preferences"),
        what="the Preferences dialog to close",
    )


def open_media(screen, path, stem):
    """Media > Open File (Ctrl+O): type the path; wait for the window title naming the media."""
    main_window(screen)
    yield [key("ctrl", "o")]
    yield from file_dialog_path(screen, path, title="Select one or more files to open")
    screen.wait_until(lambda: screen.has_window(stem), what=f"{stem!r} to play")


def clear_open_list(screen, box):
    """Remove every file the Open Media dialog (`box`) still lists from a previous use."""

    def listed():
        return screen.elements(lambda e: e.role == "list-item" and inside(e, box) and e.name.startswith("/"))

    for _ in range(10):
        items = listed()
        if not items:
            return
        yield [click(items[0]), click(screen.find(named("push-button", "Remove"), what="the Remove button"))]
        count = len(items)
        screen.wait_until(
            lambda count=count: len(listed()) < count, timeout_s=5, what="the file to leave the list"
        )
    raise ConfigError("the Open Media list does not empty", hint="look at the last screenshot")


def add_to_open_list(screen, path):
    """In the Open Media dialog: empty its list, Add... the file `path`, wait for it in the list."""
    box = dialog(screen, "Open Media")
    yield from clear_open_list(screen, box)
    yield [click(screen.find(named("push-button", "Add..."), what="the Add... button"))]
    yield from file_dialog_path(screen, path, title="Select one or multiple files")
    screen.find(
        lambda e: e.role == "list-item" and e.name == path and inside(e, box), what=f"{path} in the list"
    )


def playlist_titles(screen):
    """The titles of the playlist view's rows, top to bottom ([] while the view is hidden): the cells
    of its Title column (the tree whose header reads Title)."""
    headers = screen.elements(lambda e: e.role == "table-column-header" and e.name == "Title")
    if not headers:
        return []
    title = headers[0]
    cells = screen.elements(
        lambda e: (
            e.role == "table-cell" and e.name and e.y > title.y and title.x <= e.center[0] < title.x + title.w
        )
    )
    return [cell.name for cell in sorted(cells, key=lambda e: e.y)]


def show_playlist(screen):
    """View > Playlist (Ctrl+L toggles it) until the playlist view's Title column shows."""
    main_window(screen)
    for _ in range(3):
        if screen.elements(lambda e: e.role == "table-column-header" and e.name == "Title"):
            return
        yield [key("ctrl", "l")]
        try:
            screen.wait_until(
                lambda: bool(
                    screen.elements(lambda e: e.role == "table-column-header" and e.name == "Title")
                ),
                timeout_s=5,
                what="the playlist view",
            )
            return
        except ConfigError:
            continue
    raise ConfigError("the playlist view does not show", hint="look at the last screenshot")


def save_playlist(screen, path, *, replace=False):
    """Media > Save Playlist to File (Ctrl+Y): type `path` (its suffix picks the format), accept,
    confirm replacing an existing file when `replace`; wait for the dialog to close."""
    title = "Save playlist as..."
    main_window(screen)
    yield [key("ctrl", "y")]
    yield from file_dialog_path(screen, path, title=title)
    if replace:
        yes = screen.find(
            named("push-button", "Yes"), what="the Replace? question's Yes button", timeout_s=15
        )
        yield [click(yes)]
    wait_gone(screen, title)


def focus_vlc(screen):
    """Alt+Tab from the terminal to VLC (the only other window), then check that VLC has the keyboard:
    Ctrl+O must open its file dialog (closed again with Escape); else Alt+Tab again."""
    for _ in range(4):
        yield [key("alt", "tab"), {"action": "wait", "time": 1.0}, key("ctrl", "o")]
        try:
            screen.wait_until(
                lambda: screen.has_window("Select one or more files to open"),
                timeout_s=6,
                what="VLC's Open dialog",
            )
        except ConfigError:
            continue
        yield [key("Escape")]
        screen.wait_until(
            lambda: not screen.has_window("Select one or more files to open"), what="the dialog to close"
        )
        return
    raise ConfigError("the teacher could not bring VLC to the front", hint="look at the last screenshot")
