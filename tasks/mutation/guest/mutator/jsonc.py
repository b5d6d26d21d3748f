"""JSON and JSONC files (VS Code settings, keybindings, tasks, workspaces; Chromium's Preferences,
Bookmarks and Local State): one unit per changed key.

Objects are recursed and arrays compared whole (a keybindings list is one unit), as the hub's
state_diff does. A mutant is written as plain JSON: comments are lost, which every JSONC reader
accepts. Corruption: the file keeps its name but stops being JSON.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from mutator.core import Corruption, Unit

_MISSING = object()
# Chromium's profile keeps its JSON files without a suffix: matched by their names
SUFFIXES = (".json", ".jsonc", ".code-workspace", "/preferences", "/bookmarks", "/local state")


def parse_jsonc(text: str):
    """JSON with // and /* */ comments and trailing commas (VS Code's dialect)."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(ch)
            i += 1
    cleaned = re.sub(r",(\s*[}\]])", r"\1", "".join(out))
    return json.loads(cleaned) if cleaned.strip() else None


def _flat(value, prefix=()):
    if isinstance(value, dict) and value:
        for key, child in value.items():
            yield from _flat(child, (*prefix, key))
    else:
        yield prefix, value


def _set(document, path, value):
    if not path:
        return value
    node = document
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    if value is _MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = copy.deepcopy(value)
    return document


def _write(rel: str, path, value, *, start_from):
    def op(home: Path) -> None:
        target = home / rel
        document = parse_jsonc(target.read_text(encoding="utf-8")) if start_from == "file" else None
        document = _set(document if isinstance(document, dict) else {}, path, value)
        target.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old = parse_jsonc(initial.read_text(encoding="utf-8"))
    new = parse_jsonc(golden.read_text(encoding="utf-8"))
    if isinstance(old, list) and isinstance(new, list):
        return _list_units(rel, old, new)
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return None  # a scalar at the top: the file is one unit
    before, after = dict(_flat(old)), dict(_flat(new))
    found = []
    for path in sorted(set(before) | set(after), key=lambda p: [str(k) for k in p]):
        was, now = before.get(path, _MISSING), after.get(path, _MISSING)
        if was == now or not path:
            continue
        shown = ".".join(map(str, path))
        what = f"{rel}: {shown} " + (
            "added" if was is _MISSING else "removed" if now is _MISSING else "changed"
        )
        found.append(
            Unit(
                "json.key",
                rel,
                what,
                revert=_write(rel, path, was, start_from="file"),
                apply=_write(rel, path, now, start_from="file"),
            )
        )
    return found


def _list_units(rel: str, old: list, new: list) -> list[Unit]:
    """A top-level list (keybindings.json): one unit per entry added or removed, compared whole."""
    added = [item for item in new if item not in old]
    removed = [item for item in old if item not in new]

    def rewrite(drop: list, add: list):
        def op(home: Path) -> None:
            current = parse_jsonc((home / rel).read_text(encoding="utf-8"))
            current = [item for item in (current or []) if item not in drop] + copy.deepcopy(add)
            (home / rel).write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")

        return op

    units = [
        Unit(
            "json.entry",
            rel,
            f"{rel}: entry {json.dumps(item)[:80]} added",
            revert=rewrite([item], []),
            apply=rewrite([], [item]),
        )
        for item in added
    ]
    units += [
        Unit(
            "json.entry",
            rel,
            f"{rel}: entry {json.dumps(item)[:80]} removed",
            revert=rewrite([], [item]),
            apply=rewrite([item], []),
        )
        for item in removed
    ]
    return units


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    def not_json(home: Path) -> None:
        text = (home / rel).read_text(encoding="utf-8").rstrip()
        (home / rel).write_text(text[: max(1, len(text) // 2)] + "\n", encoding="utf-8")

    return [
        Corruption("corrupt.wrong_format", rel, f"{rel} is cut off halfway: no longer valid JSON", not_json)
    ]
