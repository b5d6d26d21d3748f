"""Host-side steps the VS Code GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
VS Code is code-server (Code 1.139) in a Chromium app window titled "<folder> - code-server", with
the home folder open. Its workbench exports an accessibility tree: the Command Palette's input is an
entry named "Type the name of a command to run.", its rows are list-items named by the command (and
its shortcut: "File: Open File..., Control+O"), editor tabs are page-tabs named by the file
("keybindings.json"), and the Explorer's activity tab says "Explorer (…) - 1 unsaved file" while an
editor holds unsaved changes. The user settings.json opens in a *modal* editor: a dialog named by its
path ("~/.config/Code/User/settings.json"), which Escape closes. The file dialogs are VS Code's own
"simple" ones: a quick-input entry named "Folder path - Open File" / "Folder path - Save As" holding a
path that can be replaced as a whole.

Typing into Monaco: it closes brackets and quotes itself and overtypes its own closer when the same
character is typed next, so JSON typed on ONE line comes out exactly as typed; a typed newline would
auto-indent and push the auto-inserted closer down, so the teachers never type newlines in JSON.
JSON files show suggestions as you type (setting ids, command ids); the teachers never press Enter or
Tab in the editor, so none is accepted, and the only Escape they press closes the Find box (another
would close the modal editor).
"""

import json
import posixpath

from infra.errors import ConfigError
from skills.kit.teach import click

PALETTE = "Type the name of a command to run."


def ready(screen):
    """Wait for VS Code's window and its workbench (the Explorer's activity tab)."""
    screen.wait_until(lambda: screen.has_window(" - code-server"), timeout_s=180, what="VS Code's window")
    screen.find(
        lambda e: e.role == "page-tab" and e.name.startswith("Explorer"), what="the workbench", timeout_s=180
    )


def command(screen, name, *, opens=None, tries=3):
    """Run `name` from the Command Palette (F1): type it and click its row once the list stops moving
    (the palette re-ranks while it filters, and may rank a namesake first: "Open Default Keyboard
    Shortcuts (JSON)" above "Open Keyboard Shortcuts (JSON)"). With `opens` (a file's base name), wait
    for its editor and, like a person who clicked the wrong row, run the command again if it is not there."""

    def row_of():
        return screen.find(
            lambda e: e.role == "list-item" and (e.name == name or e.name.startswith(name + ", ")),
            what=f"the command {name!r}",
        )  # a row with a shortcut is named "File: Open File..., Control+O"

    for attempt in range(1, tries + 1):
        if attempt > 1:
            yield [{"action": "key", "keys": ["Escape"]}]
        yield [{"action": "key", "keys": ["F1"]}]
        try:
            screen.find(
                lambda e: e.role == "entry" and e.name == PALETTE, what="the Command Palette", timeout_s=10
            )
            yield [{"action": "type", "text": name}]
            row = row_of()
            for _ in range(10):  # the same place twice, half a second apart
                yield [{"action": "wait", "time": 0.5}]
                again = row_of()
                if (again.x, again.y) == (row.x, row.y):
                    break
                row = again
            yield [click(row)]
            if opens:
                tab(screen, opens, timeout_s=20)
            return
        except ConfigError:
            if attempt == tries:
                raise


def tab(screen, name, *, timeout_s=30):
    """Wait for the editor of the file `name` (its base name): a tab, or the modal editor (a dialog
    named by the file's path) that the user settings.json opens in."""

    def shown(e):
        if e.role == "page-tab":
            return e.name == name or e.name.startswith(name + ",")
        return e.role == "dialog" and e.name.endswith("/" + name)

    return screen.find(shown, what=f"the editor of {name}", timeout_s=timeout_s)


def open_file(screen, path):
    """Open the file at the absolute `path` with File: Open File... (the path replaces the dialog's)."""
    yield from command(screen, "File: Open File...")
    screen.find(lambda e: e.role == "entry" and e.name.endswith("Open File"), what="the Open File dialog")
    yield [{"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": path}]
    yield [{"action": "wait", "time": 0.5}, {"action": "key", "keys": ["Return"]}]
    tab(screen, posixpath.basename(path))


def type_json(text):
    """Type `text` (JSON on one line) into the editor. A suggestion list it opens stays: no Enter or
    Tab follows, and the next cursor move closes it."""
    assert "\n" not in text, "newlines in the editor auto-indent and break the bracket pairs"
    return [{"action": "type", "text": text}, {"action": "wait", "time": 0.5}]


def after(screen, needle):
    """Put the cursor right after the first `needle` of the editor: from its top (ctrl+Home), Find
    (ctrl+f) selects the first match as the needle is typed (Enter would jump to the second), Escape
    closes the find box and keeps the selection, Right collapses it to its end."""
    yield [{"action": "key", "keys": ["ctrl", "Home"]}, {"action": "key", "keys": ["ctrl", "f"]}]
    yield [{"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": needle}]
    yield [{"action": "wait", "time": 0.8}, {"action": "key", "keys": ["Escape"]}]
    yield [{"action": "key", "keys": ["Right"]}]


def delete_line_of(screen, needle):
    """Empty the editor line that holds `needle` (found as in `after`, then End, shift+Home twice: the
    first stops at the indentation, and Delete)."""
    yield from after(screen, needle)
    yield [
        {"action": "key", "keys": ["End"]},
        {"action": "key", "keys": ["shift", "Home"]},
        {"action": "key", "keys": ["shift", "Home"]},
        {"action": "key", "keys": ["Delete"]},
    ]


def save(screen):
    """Save (ctrl+s) and wait until VS Code no longer counts an unsaved file."""
    yield [{"action": "key", "keys": ["ctrl", "s"]}]
    screen.wait_until(lambda: not screen.elements(_unsaved), timeout_s=30, what="the file to be saved")


def save_as(screen, path):
    """Save a new editor under the absolute `path`: ctrl+s asks for it in the Save As box; a folder
    that does not exist yet is created when VS Code asks."""
    yield [{"action": "key", "keys": ["ctrl", "s"]}]
    screen.find(lambda e: e.role == "entry" and e.name.endswith("Save As"), what="the Save As box")
    yield [{"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": path}]
    yield [
        {"action": "wait", "time": 0.5},
        {"action": "key", "keys": ["Return"]},
        {"action": "wait", "time": 1},
    ]
    for _ in range(3):  # "The folder .vscode does not exist. Would you like to create it?"
        if screen.elements(lambda e: e.role == "entry" and "does not exist" in e.name):
            yield [{"action": "key", "keys": ["Return"]}, {"action": "wait", "time": 1}]
    tab(screen, posixpath.basename(path))
    screen.wait_until(lambda: not screen.elements(_unsaved), timeout_s=30, what="the file to be saved")


def new_file(screen, text):
    """A new untitled editor (ctrl+n) with `text` typed into it."""
    yield [{"action": "key", "keys": ["ctrl", "n"]}]
    tab(screen, "Untitled-1")
    yield type_json(text)


def pairs(mapping):
    """`"key": value, ` for each item of `mapping`, in JSON: entries typed before existing ones."""
    return "".join(f"{json.dumps(k)}: {json.dumps(v)}, " for k, v in mapping.items())


def _unsaved(e):
    return e.role == "page-tab" and "unsaved" in e.name
