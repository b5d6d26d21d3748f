"""VLC's preferences file (~/.config/vlc/vlcrc, matched by its name): one unit per setting added,
removed or changed.

vlcrc is `key=value` lines under `[module] # description` section headers; VLC writes every option
and comments out (`#key=default`) the ones at their default, so only active lines are settings and a
commented line never counts. Keys are unique across sections (VLC reads them so), and a mutant sets a
key where its line is, active or commented, or adds it at the end. A removed setting is commented out,
as VLC itself writes an option back at its default. Corruption: every setting the task changed is
written commented out — the state a checker that scans `key=` lines without skipping comments (the
OSWorld pitfall) would pass.
"""

from __future__ import annotations

from pathlib import Path

from mutator.core import Corruption, Unit

SUFFIXES = ("/vlcrc",)  # a name, not a suffix: VLC's file has none
_MISSING = object()


def _key(line: str, *, commented: bool) -> str | None:
    """The key of a `key=value` line (of a `#key=value` one too, with commented=True), else None."""
    body = line.lstrip("\ufeff").strip()
    if body.startswith("#"):
        if not commented:
            return None
        body = body.lstrip("#").strip()
    if not body or body.startswith(("[", ";", "#")) or "=" not in body:
        return None
    key = body.split("=", 1)[0].strip()
    return key if key and " " not in key else None


def parse(text: str) -> dict[str, str]:
    """{key: value} of the active lines (the last one wins, as VLC reads the file)."""
    found = {}
    for line in text.splitlines():
        if (key := _key(line, commented=False)) is not None:
            found[key] = line.split("=", 1)[1].strip()
    return found


def set_key(text: str, key: str, value) -> str:
    """`text` with `key` set to `value` (a string), or commented out (`_MISSING`): its active line
    replaced, else its commented line made active, else a line added at the end."""
    lines = text.splitlines()
    active = [i for i, line in enumerate(lines) if _key(line, commented=False) == key]
    if value is _MISSING:
        for i in active:
            lines[i] = "#" + lines[i].lstrip("\ufeff")
        return "\n".join(lines) + "\n"
    if active:
        for i in active[1:]:
            lines[i] = "#" + lines[i]
        lines[active[0]] = f"{key}={value}"
    else:
        commented = [i for i, line in enumerate(lines) if _key(line, commented=True) == key]
        if commented:
            lines[commented[0]] = f"{key}={value}"
        else:
            lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _write(rel: str, key: str, value):
    def op(home: Path) -> None:
        target = home / rel
        target.write_text(set_key(_read(target), key, value), encoding="utf-8")

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    before, after = parse(_read(initial)), parse(_read(golden))
    found = []
    for key in sorted(set(before) | set(after)):
        was, now = before.get(key, _MISSING), after.get(key, _MISSING)
        if was == now:
            continue
        what = "added" if was is _MISSING else "removed" if now is _MISSING else "changed"
        found.append(
            Unit(
                "vlcrc.key",
                rel,
                f"{rel}: {key} {what}",
                revert=_write(rel, key, was),
                apply=_write(rel, key, now),
            )
        )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    before = parse(_read(initial)) if initial is not None else {}
    changed = [key for key, value in parse(_read(golden)).items() if before.get(key, _MISSING) != value]
    if not changed:
        return []

    def comment_out(home: Path) -> None:
        target = home / rel
        lines = _read(target).splitlines()
        lines = ["#" + line if _key(line, commented=False) in changed else line for line in lines]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return [
        Corruption(
            "corrupt.commented_out",
            rel,
            f"{rel}: the changed settings ({', '.join(changed[:5])}) are written commented out",
            comment_out,
        )
    ]
