"""Thunderbird's message filter lists (msgFilterRules.dat, one per mail server): one unit per filter
added, removed or changed, filters matched by their name; the file's own settings (version,
logging) are one unit when they change.

The file is `key="value"` lines: the header (version, logging), then each filter from its `name=`
line to the next one (enabled, type, action/actionValue pairs, condition). A mutant keeps every
other filter's lines as they were, in their order. Corruption: the file keeps its name but no
longer parses as a filter list.
"""

from __future__ import annotations

from pathlib import Path

from mutator.core import Corruption, Unit

SUFFIXES = ("/msgfilterrules.dat",)
_HEAD = ("head", 0)


def _blocks(text: str) -> list[tuple[tuple[str, int], list[str]]]:
    """[(key, lines)]: the header (key ("head", 0)) and each filter keyed (name, occurrence)."""
    lines = text.splitlines()
    if lines and not lines[0].startswith('version="'):
        raise ValueError("not a filter list: no version line first")
    blocks: list[tuple[tuple[str, int], list[str]]] = [(_HEAD, [])]
    seen: dict[str, int] = {}
    for line in lines:
        if line.startswith('name="'):
            name = line[len('name="') :].rstrip().removesuffix('"')
            count = seen.get(name, 0)
            seen[name] = count + 1
            blocks.append(((name, count), [line]))
        else:
            blocks[-1][1].append(line)
    return blocks


def _set_block(rel: str, key: tuple[str, int], lines: list[str] | None, position: int):
    """An op that makes block `key` of the mutant's file read `lines` (None: absent), a block that
    was not there going in at `position`."""

    def op(home: Path) -> None:
        target = home / rel
        blocks = _blocks(target.read_text(encoding="utf-8")) if target.exists() else [(_HEAD, [])]
        index = next((i for i, (k, _) in enumerate(blocks) if k == key), None)
        if index is not None:
            if lines is None:
                del blocks[index]
            else:
                blocks[index] = (key, lines)
        elif lines is not None:
            blocks.insert(max(1, min(position, len(blocks))), (key, lines))
        text = "\n".join(line for _, block in blocks for line in block)
        target.write_text(text + "\n" if text else "", encoding="utf-8")

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old = {k: (i, lines) for i, (k, lines) in enumerate(_blocks(initial.read_text(encoding="utf-8")))}
    new = {k: (i, lines) for i, (k, lines) in enumerate(_blocks(golden.read_text(encoding="utf-8")))}
    found = []
    for key in sorted(set(old) | set(new), key=lambda k: (new.get(k, old.get(k))[0], k)):
        was, now = old.get(key), new.get(key)
        if was is not None and now is not None and was[1] == now[1]:
            continue
        change = "added" if was is None else "removed" if now is None else "changed"
        what = "the file's settings" if key == _HEAD else f"filter {key[0]!r}"
        found.append(
            Unit(
                "filters.filter",
                rel,
                f"{rel}: {what} {change}",
                revert=_set_block(rel, key, was[1] if was else None, was[0] if was else len(old)),
                apply=_set_block(rel, key, now[1] if now else None, now[0] if now else len(new)),
            )
        )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    def garbage(home: Path) -> None:
        text = golden.read_text(encoding="utf-8")
        # the quotes around every value are lost: Thunderbird (and any reader) drops the filters
        (home / rel).write_text(text.replace('"', ""), encoding="utf-8")

    return [Corruption("corrupt.not_filters", rel, f"{rel} no longer parses as a filter list", garbage)]
