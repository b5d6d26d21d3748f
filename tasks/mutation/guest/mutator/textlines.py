"""Plain text files that are lists of lines: shell startup files (~/.bashrc), git's and ssh's config
files, and text or CSV reports a terminal pipeline writes. One unit per line added, removed or
changed (a line replaced by another in place), compared as a diff of the two files' lines; blank lines
are never units (they change nothing a program reads), nor are comment lines of the config files.

A line's unit edits the mutant's copy by content: reverting an added line deletes it, applying it
inserts it after the line it follows in the golden file (else at the end); a changed line is swapped
back or forth. Corruptions, for a file the task wrote or rewrote: the added lines written commented
out (`# ` in front: an alias or setting that is not in effect, a report row that is not data), the
added lines in reverse order (a report sorted the wrong way; not for shell startup files, whose
lines are independent statements), and the last added line missing (a pipeline cut one row short
with `head`).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from mutator.core import Corruption, Unit

# `#` starts a comment; no leading "/": the home-relative path of ~/.bashrc is ".bashrc"
CONFIGS = (".bashrc", ".bash_aliases", ".profile", ".gitconfig", ".ssh/config")
# Text reports by name only: a generic .txt would turn every rewritten note (tests/test_mutation_fail_closed's
# notes/todo.txt) from one file-level unit into line units.
SUFFIXES = CONFIGS + (".csv", ".tsv", "-top-errors.txt")
SHELL_FILES = (".bashrc", ".bash_aliases", ".profile")


def _matters(rel: str, line: str) -> bool:
    """Whether a line can change what a program reads: not blank, and not a comment of a config file."""
    body = line.strip()
    return bool(body) and not (rel.lower().endswith(CONFIGS) and body[0] in "#;")


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n" if lines else "", encoding="utf-8")


def _after(lines: list[str], anchor: str | None) -> int:
    """Where a line that follows `anchor` goes in `lines`: after anchor's last occurrence, at the top
    when it had none, else at the end."""
    if anchor is None:
        return 0
    spots = [i for i, line in enumerate(lines) if line == anchor]
    return spots[-1] + 1 if spots else len(lines)


def _insert(rel: str, line: str, anchor: str | None):
    def op(home: Path) -> None:
        lines = _read(home / rel)
        lines.insert(_after(lines, anchor), line)
        _write(home / rel, lines)

    return op


def _delete(rel: str, line: str):
    def op(home: Path) -> None:
        lines = _read(home / rel)
        spots = [i for i, have in enumerate(lines) if have == line]
        if not spots:
            raise ValueError(f"{line!r} is not in {rel}")
        del lines[spots[-1]]
        _write(home / rel, lines)

    return op


def _swap(rel: str, old: str, new: str):
    def op(home: Path) -> None:
        lines = _read(home / rel)
        spots = [i for i, have in enumerate(lines) if have == old]
        if not spots:
            raise ValueError(f"{old!r} is not in {rel}")
        lines[spots[-1]] = new
        _write(home / rel, lines)

    return op


def _short(line: str) -> str:
    line = line.strip()
    return line if len(line) <= 60 else line[:57] + "…"


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    before, after = _read(initial), _read(golden)
    found = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old = [line for line in before[i1:i2] if _matters(rel, line)]
        new = [line for line in after[j1:j2] if _matters(rel, line)]
        paired = min(len(old), len(new)) if tag == "replace" else 0  # a line rewritten in place
        for was, now in zip(old[:paired], new[:paired], strict=True):
            found.append(
                Unit(
                    "text.line_changed",
                    rel,
                    f"{rel}: {_short(was)} -> {_short(now)}",
                    _swap(rel, now, was),
                    _swap(rel, was, now),
                )
            )
        old, new = old[paired:], new[paired:]
        # a single unit inserts its line where its block was: after the line before the block
        golden_anchor = after[j1 - 1] if j1 > 0 else None
        initial_anchor = before[i1 - 1] if i1 > 0 else None
        for line in old:
            found.append(
                Unit(
                    "text.line_removed",
                    rel,
                    f"{rel}: removed {_short(line)}",
                    revert=_insert(rel, line, golden_anchor),
                    apply=_delete(rel, line),
                )
            )
        for line in new:
            found.append(
                Unit(
                    "text.line_added",
                    rel,
                    f"{rel}: added {_short(line)}",
                    revert=_delete(rel, line),
                    apply=_insert(rel, line, initial_anchor),
                )
            )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    before = _read(initial) if initial is not None else []
    after = _read(golden)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    added = [j for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal" for j in range(j1, j2)]
    added = [j for j in added if _matters(rel, after[j])]
    if not added:
        return []

    def commented(home: Path) -> None:
        lines = list(after)
        for j in added:
            lines[j] = "# " + lines[j]
        _write(home / rel, lines)

    def reversed_order(home: Path) -> None:
        lines = list(after)
        for j, line in zip(added, [after[j] for j in reversed(added)], strict=True):
            lines[j] = line
        _write(home / rel, lines)

    def last_missing(home: Path) -> None:
        lines = list(after)
        del lines[added[-1]]
        _write(home / rel, lines)

    found = [
        Corruption(
            "corrupt.commented_out", rel, f"{rel}: the {len(added)} added lines are commented out", commented
        )
    ]
    # shell startup lines are independent statements: their order changes nothing a new shell has
    if len({after[j] for j in added}) > 1 and not rel.lower().endswith(SHELL_FILES):
        found.append(
            Corruption("corrupt.line_order", rel, f"{rel}: the added lines in reverse order", reversed_order)
        )
    if len(added) > 1:
        found.append(
            Corruption("corrupt.line_missing", rel, f"{rel}: the last added line is missing", last_missing)
        )
    return found
