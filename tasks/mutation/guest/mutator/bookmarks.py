"""Chromium's Bookmarks file: one unit per bookmark or folder added, removed, moved or changed.

jsonc.py compares arrays whole, so a bookmarks bar whose children were reorganised (a folder made,
two bookmarks moved into it, one deleted) would be a single unit, and a single unit makes no
partial-revert mutant. Here a node is known by what a person knows it by: a bookmark by its URL, a
folder by its name (the n-th node of the same URL or name, in document order, when one repeats), and
its place is its parent (a root or a folder). A unit puts one node where the other state has it: a
bookmark moved into a folder, a bookmark deleted, a folder made, a bookmark renamed. Order within a
folder is not a unit; a file whose only change is order stays jsonc's key units. Chromium's own
bookkeeping (ids, guids, dates, the checksum) is never compared.

Putting a node into a folder the state lacks makes that folder (empty) where the other state has it;
taking a folder out lifts its children into its parent, where their own units may move them on.
Corruption: jsonc's (the file stops being JSON).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from mutator import jsonc
from mutator.core import Unit

SUFFIXES = ("/bookmarks",)
VOLATILE = {"id", "guid", "date_added", "date_modified", "date_last_used", "meta_info", "children"}


def _nodes(roots: dict) -> dict:
    """identity -> {"place": parent identity, "index": n, "node": the node} in document order. A root is
    ("root", key); a folder ("folder", name, n); a bookmark ("url", url, n)."""
    found: dict = {}
    seen: dict = {}

    def walk(folder: dict, place: tuple) -> None:
        for index, child in enumerate(folder.get("children") or []):
            if not isinstance(child, dict):
                continue
            is_folder = child.get("type") == "folder"
            base = ("folder", child.get("name")) if is_folder else ("url", child.get("url"))
            seen[base] = seen.get(base, 0) + 1
            ident = (*base, seen[base])
            found[ident] = {"place": place, "index": index, "node": child}
            if is_folder:
                walk(child, ident)

    for key in sorted(roots):
        if isinstance(roots[key], dict):
            walk(roots[key], ("root", key))
    return found


def _fields(node: dict) -> dict:
    return {k: v for k, v in node.items() if k not in VOLATILE}


def _roots(path: Path):
    document = jsonc.parse_jsonc(path.read_text(encoding="utf-8"))
    roots = document.get("roots") if isinstance(document, dict) else None
    return document, roots if isinstance(roots, dict) else None


def _describe(ident: tuple) -> str:
    kind, name, n = ident
    return f"{'folder' if kind == 'folder' else 'bookmark'} {name!r}" + (f" (#{n})" if n > 1 else "")


def _place_of(place: tuple) -> str:
    return place[1] if place[0] == "root" else repr(place[1])


def _put(rel: str, ident: tuple, target: dict | None, others: dict):
    """An op that puts node `ident` where `target` says ({"place", "index", "node"} of the state to
    match; None: nowhere), `others` being that state's nodes (to make a missing parent folder)."""

    def op(home: Path) -> None:
        path = home / rel
        document = jsonc.parse_jsonc(path.read_text(encoding="utf-8"))
        roots = document["roots"]
        nodes = _nodes(roots)

        def container(place: tuple) -> dict:
            if place[0] == "root":
                return roots.setdefault(place[1], {"type": "folder", "name": place[1], "children": []})
            if place in nodes:
                return nodes[place]["node"]
            made = {k: v for k, v in others[place]["node"].items() if k != "children"}
            made["children"] = []
            parent = container(others[place]["place"])
            parent.setdefault("children", []).insert(others[place]["index"], made)
            nodes[place] = {"place": others[place]["place"], "index": others[place]["index"], "node": made}
            return made

        node, stay = None, None
        if ident in nodes:
            here = nodes[ident]
            siblings = container(here["place"])["children"]
            at = next(i for i, child in enumerate(siblings) if child is here["node"])
            node = siblings.pop(at)
            stay = at if target is not None and target["place"] == here["place"] else None  # changed in place
            if target is None and node.get("type") == "folder":
                siblings[at:at] = node.get("children") or []  # its children stay, lifted a level
        if target is not None:
            fresh = copy.deepcopy(_fields(target["node"]))
            if node is None:
                node = {**fresh, **({"children": []} if fresh.get("type") == "folder" else {})}
            else:
                node = {**{k: v for k, v in node.items() if k in VOLATILE}, **fresh}
            children = container(target["place"]).setdefault("children", [])
            children.insert(min(target["index"], len(children)) if stay is None else stay, node)
        path.write_text(json.dumps(document, indent=3) + "\n", encoding="utf-8")

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old_doc, old_roots = _roots(initial)
    new_doc, new_roots = _roots(golden)
    if old_roots is None or new_roots is None:
        return jsonc.units(rel, initial, golden)
    before, after = _nodes(old_roots), _nodes(new_roots)
    found = []
    for ident in [*after, *(i for i in before if i not in after)]:
        was, now = before.get(ident), after.get(ident)
        if was and now and was["place"] == now["place"] and _fields(was["node"]) == _fields(now["node"]):
            continue
        if was is None:
            what = f"added to {_place_of(now['place'])}"
        elif now is None:
            what = f"removed from {_place_of(was['place'])}"
        elif was["place"] != now["place"]:
            what = f"moved from {_place_of(was['place'])} to {_place_of(now['place'])}"
        else:
            what = "changed (" + ", ".join(
                k for k in sorted(set(_fields(was["node"])) | set(_fields(now["node"])))
                if was["node"].get(k) != now["node"].get(k)
            ) + ")"  # fmt: skip
        found.append(
            Unit(
                "bookmarks.node",
                rel,
                f"{rel}: {_describe(ident)} {what}",
                revert=_put(rel, ident, was, before),
                apply=_put(rel, ident, now, after),
            )
        )
    if not found and old_roots != new_roots:
        return jsonc.units(rel, initial, golden)  # only the order changed: the roots' key units
    # the rest of the file (its version, say), key by key; Chromium's checksum is bookkeeping
    rest = [
        {k: v for k, v in (doc or {}).items() if k not in ("roots", "checksum")} for doc in (old_doc, new_doc)
    ]
    flat_old, flat_new = dict(jsonc._flat(rest[0])), dict(jsonc._flat(rest[1]))
    for key in sorted(set(flat_old) | set(flat_new), key=lambda p: [str(k) for k in p]):
        was, now = flat_old.get(key, jsonc._MISSING), flat_new.get(key, jsonc._MISSING)
        if key and was != now:
            found.append(
                Unit(
                    "json.key",
                    rel,
                    f"{rel}: {'.'.join(map(str, key))} changed",
                    revert=jsonc._write(rel, key, was, start_from="file"),
                    apply=jsonc._write(rel, key, now, start_from="file"),
                )
            )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path):
    return jsonc.corruptions(rel, initial, golden)
