"""Host-side steps the GIMP GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
GIMP 2.10 is GTK2; with GTK_MODULES=gail:atk-bridge (its declared command) it exports its tree:
the menu bar's menus with their boxes, and every menu's items by name with their mnemonics but no
boxes (a popup is not placed until it opens); dialogs with their labels, spin buttons, combo boxes
and push buttons by name. So a teacher opens menus with the keyboard: alt+mnemonic, then each item's
mnemonic — once when no selectable sibling (visible, sensitive) shares it, which activates it; else
as many times as its rank among the siblings sharing it (GTK2 selects the next namesake per press),
then Return (or Right into a submenu). Arrow keys are no way there: GTK2's menus drop some of a
quick run of Down presses. It finds a dialog's fields right of their labels and waits for windows
by title: the image window's title is "[stem] (imported)-1.0
(RGB color 8-bit …) WxH – GIMP", "*" first once changed, "(exported)" once exported.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from infra.errors import ConfigError
from skills.kit.teach import click, named

_ST = "{https://accessibility.ubuntu.example.org/ns/state}"
_ACT = "{https://accessibility.ubuntu.example.org/ns/action}"
_CP = "{https://accessibility.ubuntu.example.org/ns/component}"
_MENU_ROLES = ("menu", "menu-item", "check-menu-item", "radio-menu-item")


def key(*keys):
    return {"action": "key", "keys": list(keys)}


def typed(text):
    return {"action": "type", "text": text}


def image_window(screen, stem, *, timeout_s=60.0):
    """Wait for the image window of `stem` (its title holds "[stem]"); its title."""
    found = []

    def shown():
        found[:] = [t for t in screen.windows() if f"[{stem}]" in t and t.endswith("GIMP")]
        return bool(found)

    screen.wait_until(shown, timeout_s=timeout_s, what=f"GIMP's window of {stem}")
    return found[0]


def _mnemonic(node):
    """The item's mnemonic letter (act:click_kb is "m;<Alt>x:…:m;<accel>")."""
    first = (node.get(f"{_ACT}click_kb") or "").split(";", 1)[0]
    return first.rsplit(">", 1)[-1].lower()  # a menu bar's menu says "<Alt>c"


def _selectable(node):
    return (
        node.tag in _MENU_ROLES
        and node.get(f"{_ST}visible") == "true"
        and node.get(f"{_ST}sensitive") == "true"
    )


def menu_keys(tree_xml, path):
    """The key presses that open the menu bar's `path[0]` and activate `path[1:]` in it (mnemonics,
    see the module's docstring)."""
    root = ET.fromstring(tree_xml)
    bar = next(
        (m for m in root.iter("menu") if m.get("name") == path[0] and m.get(f"{_CP}screencoord")),
        None,
    )
    if bar is None:
        raise ConfigError(f"no {path[0]!r} menu in GIMP's menu bar", hint="is the image window showing?")
    presses = [key("alt", _mnemonic(bar) or path[0][0].lower())]
    node = bar
    for depth, name in enumerate(path[1:], start=1):
        items = [c for c in node if _selectable(c)]
        target = next((c for c in items if c.get("name") == name), None)
        if target is None:
            shown = [c.get("name") for c in items]
            raise ConfigError(f"no selectable {name!r} in GIMP's menu {path[:depth]}", hint=f"items: {shown}")
        last = depth == len(path) - 1
        letter = _mnemonic(target)
        if not letter:
            raise ConfigError(f"GIMP's menu item {name!r} has no mnemonic", hint="reach it another way")
        namesakes = [c for c in items if _mnemonic(c) == letter]
        if len(namesakes) == 1:
            presses.append(key(letter))  # activates an item, opens a submenu
        else:  # each press selects the next item with that mnemonic; then activate it
            presses += [key(letter)] * (namesakes.index(target) + 1)
            presses.append(key("Return") if last else key("Right"))
        node = target
    return presses


def menu(screen, *path):
    """One step: open GIMP's menu `path` (e.g. "Image", "Transform", "Flip Horizontally")."""
    yield menu_keys(screen.accessibility_tree(), path)


def dialog(screen, title, *, timeout_s=30.0):
    """Wait for the dialog window `title`; its accessible node (a box to look inside)."""
    screen.wait_until(lambda: screen.has_window(title), timeout_s=timeout_s, what=f"the {title!r} dialog")
    return screen.find(named("dialog", title), what=f"the {title!r} dialog", timeout_s=timeout_s)


def _inside(box, e):
    return box.x <= e.x < box.x + box.w and box.y <= e.y < box.y + box.h


def _row(screen, box, label, role):
    """The `role` nodes right of the label `label` in the dialog `box`, on its row, left to right."""
    labels = [e for e in screen.elements(named("label", label)) if _inside(box, e)]
    if not labels:
        return []
    lab = labels[0]
    cy = lab.y + lab.h // 2
    found = [
        e
        for e in screen.elements(lambda e: e.role == role)
        if _inside(box, e) and e.x > lab.x and e.y <= cy < e.y + e.h
    ]
    return sorted(found, key=lambda e: e.x)


def field(screen, box, label, role="spin-button", *, nth=0):
    """The `role` node right of the label `label` in the dialog `box` (same row), the `nth` one from
    the left (a Position row holds x then y)."""
    found = []

    def shown():
        found[:] = _row(screen, box, label, role)
        return len(found) > nth

    screen.wait_until(shown, timeout_s=15, what=f"the {label!r} field")
    return found[nth]


def wait_value(screen, box, label, value, *, nth=0):
    """Wait until the field right of `label` shows `value` (GIMP updates a chained field on Tab)."""

    def shows():
        row = _row(screen, box, label, "spin-button")
        return len(row) > nth and row[nth].text.strip() == str(value)

    screen.wait_until(shows, timeout_s=10, what=f"{label} {value}")


def set_value(element, value):
    """Click into a spin button or entry, replace its text with `value` and leave it with Tab (GIMP
    takes a spin button's value when the focus leaves it)."""
    return [click(element), key("ctrl", "a"), typed(str(value)), key("Tab")]


def press(screen, box, name):
    """A click on the push-button `name` inside the dialog `box`."""
    found = screen.find(lambda e: e.role == "push-button" and e.name == name and _inside(box, e), what=name)
    return click(found)


def chain_button(screen, box):
    """The chain between the Width and Height fields (an unnamed push-button right of them)."""
    width, height = field(screen, box, "Width:"), field(screen, box, "Height:")
    return screen.find(
        lambda e: (
            e.role == "push-button"
            and not e.name
            and width.x + width.w <= e.x < width.x + width.w + 40
            and width.y <= e.y + e.h // 2 <= height.y + height.h
        ),
        what="the chain button",
    )


def export_as(screen, path, *, quality=None):
    """File > Export As (shift+ctrl+E): type the full path into the Name field, confirm, accept the
    format's options dialog ("Export Image as PNG" / "… as JPEG", setting the JPEG quality when
    given), and wait for the title to say the image was exported under the new name."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    kind = "JPEG" if path.lower().endswith((".jpg", ".jpeg")) else "PNG"
    yield [key("ctrl", "shift", "e")]
    box = dialog(screen, "Export Image")
    name = screen.find(lambda e: e.role == "text" and _inside(box, e), what="the Name field")
    yield [click(name), key("ctrl", "a"), typed(path), key("Return")]
    options = dialog(screen, f"Export Image as {kind}")
    if quality is not None:
        yield set_value(field(screen, options, "Quality:"), quality)
    yield [press(screen, options, "Export")]
    screen.wait_until(
        lambda: any(f"[{stem}] (exported)" in t for t in screen.windows()),
        timeout_s=60,
        what=f"the image exported as {path}",
    )


def gimp_active(screen) -> bool:
    """Whether GIMP's image window is the active one (its frame's st:active state; a terminal beside
    it is no accessible application)."""
    frames = ET.fromstring(screen.accessibility_tree()).iter("frame")
    return any((f.get("name") or "").endswith("GIMP") and f.get(f"{_ST}active") == "true" for f in frames)


def switch_to(screen, gimp: bool):
    """Alt+tab until GIMP's activity is `gimp` (openbox has no taskbar; a press may be lost under
    load, so a person would press again). With two windows, each press swaps them."""
    what = "GIMP to come to the front" if gimp else "the other window to come to the front"
    for _ in range(4):
        if gimp_active(screen) == gimp:
            return
        yield [key("alt", "tab")]
        try:
            screen.wait_until(lambda: gimp_active(screen) == gimp, timeout_s=8, what=what)
            return
        except Exception:  # noqa: BLE001 - the press did not switch: press again
            continue
    screen.wait_until(lambda: gimp_active(screen) == gimp, timeout_s=8, what=what)
