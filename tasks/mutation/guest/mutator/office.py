"""What every office handler shares beyond the package: the incidental patterns of a kind
(incidental.yaml), the document-property units (docProps/core.xml) and the wrong-format corruption."""

from __future__ import annotations

import copy
import json
import sys
from functools import cache
from pathlib import Path

from mutator.core import Corruption, Unit
from mutator.ooxml import Package, children, local, same, short


@cache
def incidental(kind: str) -> tuple[str, ...]:
    """The incidental.yaml patterns of `kind`: from the config the host passed (argv), else read
    from the file next to this module (a flat subset of YAML: lists of strings)."""
    try:
        rules = json.loads(sys.argv[1]).get("incidental")
        if isinstance(rules, dict):
            return tuple(rules.get(kind) or ())
    except (IndexError, ValueError, AttributeError):
        pass
    rules, anchors, key = {}, {}, None
    for line in (Path(__file__).with_name("incidental.yaml")).read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if not line.startswith((" ", "-")):  # key: [a, b] | key: &anchor | key: *alias
            key, _, rest = line.partition(":")
            rest = rest.strip()
            if rest.startswith("*"):
                rules[key] = anchors.get(rest[1:], [])
                continue
            if rest.startswith("&"):
                name, _, rest = rest[1:].partition(" ")
                anchors[name] = rules[key] = []
            else:
                rules[key] = []
            rules[key] += [s.strip().strip("'\"") for s in rest.strip().strip("[]").split(",") if s.strip()]
        elif key is not None and line.strip().startswith("- "):
            rules[key].append(line.strip()[2:].strip().strip("'\""))
    return tuple(rules.get(kind) or ())


def is_incidental(kind: str, name: str) -> bool:
    import fnmatch

    return any(fnmatch.fnmatch(name, pattern) for pattern in incidental(kind))


# --- document properties (docProps/core.xml), shared by the three office kinds -------------------

CORE = "docProps/core.xml"


def _core_props(pkg: Package) -> dict:
    if not pkg.has(CORE):
        return {}
    return {local(el): el for el in children(pkg.xml(CORE))}


def _put_core(rel: str, source: Path, name: str):
    def op(home: Path) -> None:
        from lxml import etree

        pkg = Package(home / rel)
        wanted = _core_props(Package(source)).get(name)
        if not pkg.has(CORE):
            raise ValueError("the document has no core properties part")
        root = pkg.xml(CORE, edit=True)
        for el in children(root):
            if local(el) == name:
                root.remove(el)
        if wanted is not None:
            root.append(copy.deepcopy(wanted))
        etree.cleanup_namespaces(root)
        pkg.save(home / rel)

    return op


def property_units(
    kind: str, rel: str, initial: Path, golden: Path, before: Package, after: Package
) -> list[Unit]:
    """One unit per document property (docProps/core.xml) the golden changed, unless incidental."""
    units = []
    if is_incidental(kind, CORE):
        return units
    old, new = _core_props(before), _core_props(after)
    for name in sorted(set(old) | set(new)):
        if is_incidental(kind, f"{CORE}:{name}"):
            continue
        was, now = old.get(name), new.get(name)
        if (was is None and now is None) or (was is not None and now is not None and same(was, now)):
            continue
        what = (
            f"{rel}: document property {name} {short(was.text if was is not None else None)} -> "
            f"{short(now.text if now is not None else None)}"
        )
        units.append(
            Unit(
                f"{kind}.property",
                rel,
                what,
                revert=_put_core(rel, initial, name),
                apply=_put_core(rel, golden, name),
            )
        )
    return units


def wrong_format(kind: str, rel: str, text_of) -> Corruption:
    """The file keeps its name but holds plain text (what "Save as" with the wrong filter gives)."""

    def op(home: Path) -> None:
        (home / rel).write_text(text_of(home / rel), encoding="utf-8")

    return Corruption(
        "corrupt.wrong_format", rel, f"{rel} holds {kind} text under the office file's name", op
    )
