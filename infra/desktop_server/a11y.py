"""Dump the desktop's AT-SPI tree as OSWorld's server returns it (run by Debian's /usr/bin/python3).

Usage: a11y.py tree       → the XML text of GET /accessibility's "AT" field
       a11y.py terminal   → {"output": text of the focused gnome-terminal or null} as JSON

The XML follows OSWorld's Ubuntu contract: root `desktop-frame`; one element per accessible named by
its role (spaces → "-"); attributes `name`, `st:<state>="true"`, `attr:<attribute>`,
`cp:screencoord="(x, y)"` / `cp:size="(w, h)"` for visible and showing nodes, `image`, `selection`,
`val:value|min|max|step`, `act:<action>_desc|_kb`; the node's text as element text; depth ≤ 50 and
≤ 1024 children per node; in a Calc spreadsheet only the cells on screen are listed. Standard
library plus pyatspi only: this file runs outside the server's venv and must stay self-contained.
"""

from __future__ import annotations

import contextlib
import json
import sys
import xml.etree.ElementTree as ET

NS = {
    "st": "https://accessibility.ubuntu.example.org/ns/state",
    "attr": "https://accessibility.ubuntu.example.org/ns/attributes",
    "cp": "https://accessibility.ubuntu.example.org/ns/component",
    "doc": "https://accessibility.ubuntu.example.org/ns/document",
    "docattr": "https://accessibility.ubuntu.example.org/ns/document/attributes",
    "txt": "https://accessibility.ubuntu.example.org/ns/text",
    "val": "https://accessibility.ubuntu.example.org/ns/value",
    "act": "https://accessibility.ubuntu.example.org/ns/action",
}
MAX_DEPTH = 50
MAX_WIDTH = 1024
CALC_MAX_COLUMNS = 16384  # LibreOffice ≥ 7.4 (1024 before)
CALC_MAX_ROWS = 1_048_576
CALC_SCAN_LIMIT = 500  # give up looking for the first cell on screen after this many rows/columns


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def _attributes(node, pyatspi) -> tuple[dict[str, str], str]:
    attrs: dict[str, str] = {"name": node.name or ""}
    for state in node.getState().get_states():
        state_name = pyatspi.StateType._enum_lookup[state].split("_", 1)[1].lower()
        if state_name:
            attrs[_q("st", state_name)] = "true"
    for key, value in (node.get_attributes() or {}).items():
        if key:
            attrs[_q("attr", key)] = str(value)
    if attrs.get(_q("st", "visible")) == "true" and attrs.get(_q("st", "showing")) == "true":
        try:
            box = node.queryComponent().getExtents(pyatspi.XY_SCREEN)
        except NotImplementedError:
            pass
        else:
            attrs[_q("cp", "screencoord")] = str((box.x, box.y))
            attrs[_q("cp", "size")] = str((box.width, box.height))
    content = ""
    try:
        text_iface = node.queryText()
        content = text_iface.getText(0, text_iface.characterCount).replace("\ufffc", "").replace("\ufffd", "")
    except NotImplementedError:
        pass
    for iface, key in ((node.queryImage, "image"), (node.querySelection, "selection")):
        try:
            iface()
            attrs[key] = "true"
        except NotImplementedError:
            pass
    try:
        value = node.queryValue()
    except NotImplementedError:
        pass
    else:
        for key, read in (
            ("value", lambda: value.currentValue),
            ("min", lambda: value.minimumValue),
            ("max", lambda: value.maximumValue),
            ("step", lambda: value.minimumIncrement),
        ):
            with contextlib.suppress(Exception):  # an app may implement Value only partially
                attrs[_q("val", key)] = str(read())
    try:
        action = node.queryAction()
    except NotImplementedError:
        pass
    else:
        for i in range(action.nActions):
            name = action.getName(i).replace(" ", "-")
            attrs[_q("act", f"{name}_desc")] = action.getDescription(i)
            attrs[_q("act", f"{name}_kb")] = action.getKeyBinding(i)
    return attrs, content


def _element(node, depth: int, flag: str | None, pyatspi) -> ET.Element:
    attrs, content = _attributes(node, pyatspi)
    # AT-SPI answers None for what an app leaves unset (Chromium's action descriptions in VS Code):
    # ElementTree cannot serialise None, and OSWorld's tree simply omits such attributes.
    attrs = {key: str(value) for key, value in attrs.items() if value is not None}
    raw_role = node.getRoleName().strip()
    role = (raw_role or "unknown").replace(" ", "-")
    if not flag and raw_role == "document spreadsheet":
        flag = "calc"
    element = ET.Element(role, attrs)
    if content:
        element.text = content
    if depth == MAX_DEPTH:
        return element
    if flag == "calc" and role == "table":
        element.extend(_calc_cells(node, depth, flag, pyatspi))
        return element
    try:
        for i, child in enumerate(node):
            if i == MAX_WIDTH:
                break
            element.append(_element(child, depth + 1, flag, pyatspi))
    except Exception as exc:
        print(f"a11y: children of {role} not read: {exc}", file=sys.stderr)
    return element


def _calc_cells(table, depth: int, flag: str, pyatspi) -> list[ET.Element]:
    """The cells of a Calc sheet that are on screen: rows from the first showing one, columns from
    the first showing column until a cell is not showing (the sheet has 16384 × 1048576 cells)."""
    cells: list[ET.Element] = []
    base, first_column = 0, None
    for row in range(CALC_MAX_ROWS):
        column = first_column or 0
        for column in range(first_column or 0, CALC_MAX_COLUMNS):
            cell = table[base + column]
            if cell.getState().contains(pyatspi.STATE_SHOWING):
                if first_column is None:
                    first_column = column
                cells.append(_element(cell, depth + 1, flag, pyatspi))
            elif first_column is not None or column >= CALC_SCAN_LIMIT:
                break
        if (first_column is not None and column == first_column) or (
            first_column is None and row >= CALC_SCAN_LIMIT
        ):
            break
        base += CALC_MAX_COLUMNS
    return cells


def tree_xml(pyatspi) -> str:
    for prefix, uri in NS.items():
        ET.register_namespace(prefix, uri)
    root = ET.Element("desktop-frame")
    for app in pyatspi.Registry.getDesktop(0):
        root.append(_element(app, 1, None, pyatspi))
    xml = ET.tostring(root, encoding="unicode")
    # lxml (OSWorld) declares every namespace on the root; ElementTree only the ones it used.
    missing = "".join(f' xmlns:{p}="{u}"' for p, u in NS.items() if f"xmlns:{p}=" not in xml.split(">", 1)[0])
    head = len("<desktop-frame")
    return xml[:head] + missing + xml[head:]


def focused_terminal_text(pyatspi) -> str | None:
    """What OSWorld's /terminal reads: the focused terminal of the active gnome-terminal window."""
    for app in pyatspi.Registry.getDesktop(0):
        if app.getRoleName() != "application" or app.name != "gnome-terminal-server":
            continue
        for frame in app:
            if frame.getRoleName() == "frame" and frame.getState().contains(pyatspi.STATE_ACTIVE):
                found = pyatspi.findAllDescendants(
                    frame,
                    lambda n: n.getRoleName() == "terminal" and n.getState().contains(pyatspi.STATE_FOCUSED),
                )
                if len(found) == 1:
                    text_iface = found[0].queryText()
                    return text_iface.getText(0, text_iface.characterCount).rstrip()
    return None


def main(argv: list[str]) -> int:
    import pyatspi

    mode = argv[1] if len(argv) > 1 else "tree"
    if mode == "tree":
        sys.stdout.write(tree_xml(pyatspi))
    elif mode == "terminal":
        sys.stdout.write(json.dumps({"output": focused_terminal_text(pyatspi)}))
    else:
        print(f"unknown mode {mode!r}: use tree or terminal", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
