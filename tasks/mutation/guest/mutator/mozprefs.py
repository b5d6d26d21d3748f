"""Mozilla preference files (Thunderbird's and Firefox's prefs.js and user.js): one unit per
preference added, removed or changed.

A file is lines of `user_pref("key", value);` (value a JSON literal) among comments. A mutant keeps
every other line as it was and rewrites, adds or drops the one preference's line. A file without a
single preference line is not refined (a JavaScript file that happens to be named prefs.js stays
one file-level unit). Corruption: the file keeps its name but its preferences no longer parse.
"""

from __future__ import annotations

import re
from pathlib import Path

from mutator.core import Corruption, Unit

SUFFIXES = ("/prefs.js", "/user.js")
_LINE = re.compile(r'^\s*user_pref\(\s*("(?:[^"\\]|\\.)*")\s*,\s*(.*?)\s*\);\s*$')


def _parse(text: str) -> dict[str, tuple[int, str]]:
    """{key (its JSON-quoted form): (line number, line)} of the preference lines, the last one of a
    key winning (as Mozilla reads them)."""
    found = {}
    for n, line in enumerate(text.splitlines()):
        match = _LINE.match(line)
        if match:
            found[match.group(1)] = (n, line)
    return found


def _set_line(rel: str, key: str, line: str | None):
    """An op that makes the preference `key` read `line` in the mutant's file (None: absent)."""

    def op(home: Path) -> None:
        target = home / rel
        lines = target.read_text(encoding="utf-8").splitlines()
        kept = [x for x in lines if not ((m := _LINE.match(x)) and m.group(1) == key)]
        if line is not None:
            kept.append(line)
        target.write_text("\n".join(kept) + "\n", encoding="utf-8")

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old = _parse(initial.read_text(encoding="utf-8"))
    new = _parse(golden.read_text(encoding="utf-8"))
    if not old and not new:
        return None
    found = []
    for key in sorted(set(old) | set(new)):
        was, now = old.get(key, (None, None))[1], new.get(key, (None, None))[1]
        if was == now:
            continue
        change = "added" if was is None else "removed" if now is None else "changed"
        found.append(
            Unit(
                "prefs.pref",
                rel,
                f"{rel}: {key.strip(chr(34))} {change}",
                revert=_set_line(rel, key, was),
                apply=_set_line(rel, key, now),
            )
        )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    def garbage(home: Path) -> None:
        target = home / rel
        text = golden.read_text(encoding="utf-8")
        # every preference line loses its closing: Mozilla (and any reader) skips what does not parse
        target.write_text(re.sub(r"\);[ \t]*$", "", text, flags=re.M), encoding="utf-8")

    return [Corruption("corrupt.not_prefs", rel, f"{rel} no longer holds readable preferences", garbage)]
