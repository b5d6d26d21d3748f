"""Mail folders stored as mbox files (Thunderbird's Mail/<server>/<folder>, which have no suffix):
one unit per message added, removed or changed, messages matched by their Message-ID.

A file is an mbox when it starts with a "From " separator line followed by a header line; it is
recognised by its content (in either state: a folder may be empty before the task), never by its
name. Each message is the bytes from its "From " line to the next one; a mutant keeps the others
byte for byte. A message without a Message-ID is matched by its content. Corruption: the file keeps
its name but holds no messages any more (its bytes zeroed).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from mutator.core import Corruption, Unit

_SEPARATOR = re.compile(rb"^From [^\n]*\n", re.M)
_HEADER = re.compile(rb"^[!-9;-~]+:")
_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(.*(?:\n[ \t].*)*)", re.I | re.M)
_SUBJECT = re.compile(rb"^subject:[ \t]*(.*)", re.I | re.M)


def is_mbox(path: Path) -> bool:
    """Whether `path` is a non-empty mbox file: a "From " line, then a header line."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    if not head.startswith(b"From ") or b"\n" not in head:
        return False
    second = head.split(b"\n", 2)[1]
    return bool(_HEADER.match(second))


def _entries(data: bytes) -> list[bytes]:
    """The messages of an mbox, each with its "From " line; ValueError for what is not an mbox."""
    if not data:
        return []
    starts = [m.start() for m in _SEPARATOR.finditer(data)]
    if not starts or starts[0] != 0:
        raise ValueError("not an mbox: no 'From ' line at the start")
    return [data[s:e] for s, e in zip(starts, [*starts[1:], len(data)], strict=True)]


def _headers(entry: bytes) -> bytes:
    return entry.split(b"\n\n", 1)[0]


def _keyed(entries: list[bytes]) -> dict[tuple[str, int], tuple[int, bytes]]:
    """{(Message-ID or content hash, occurrence): (position, bytes)}."""
    found: dict[tuple[str, int], tuple[int, bytes]] = {}
    seen: dict[str, int] = {}
    for position, entry in enumerate(entries):
        match = _MESSAGE_ID.search(_headers(entry))
        ident = match.group(1).strip().decode("utf-8", "replace") if match else ""
        ident = ident or "sha256:" + hashlib.sha256(entry.split(b"\n", 1)[-1]).hexdigest()[:16]
        count = seen.get(ident, 0)
        seen[ident] = count + 1
        found[(ident, count)] = (position, entry)
    return found


def _subject(entry: bytes) -> str:
    match = _SUBJECT.search(_headers(entry))
    return match.group(1).strip().decode("utf-8", "replace")[:60] if match else ""


def _set_message(rel: str, key: tuple[str, int], entry: bytes | None, position: int):
    """An op that makes message `key` of the mutant's folder be `entry` (None: absent), a message
    that was not there going in at `position`."""

    def op(home: Path) -> None:
        target = home / rel
        entries = _entries(target.read_bytes()) if target.exists() else []
        current = _keyed(entries)
        if key in current:
            index = current[key][0]
            if entry is None:
                del entries[index]
            else:
                entries[index] = entry
        elif entry is not None:
            if entries and not entries[-1].endswith(b"\n\n"):
                entries[-1] = entries[-1].rstrip(b"\n") + b"\n\n"
            entries.insert(min(position, len(entries)), entry)
        target.write_bytes(b"".join(entries))

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old = _keyed(_entries(initial.read_bytes()))
    new = _keyed(_entries(golden.read_bytes()))
    found = []
    for key in sorted(set(old) | set(new), key=lambda k: (new.get(k, old.get(k))[0], k)):
        was, now = old.get(key), new.get(key)
        if was is not None and now is not None and was[1] == now[1]:
            continue
        change = "added" if was is None else "removed" if now is None else "changed"
        subject = _subject((now or was)[1])
        found.append(
            Unit(
                "mbox.message",
                rel,
                f"{rel}: message {key[0]} {change} ({subject})",
                revert=_set_message(rel, key, was[1] if was else None, was[0] if was else 0),
                apply=_set_message(rel, key, now[1] if now else None, now[0] if now else 0),
            )
        )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    def zeroed(home: Path) -> None:
        target = home / rel
        target.write_bytes(b"\x00" * max(golden.stat().st_size, 1))

    return [Corruption("corrupt.not_a_folder", rel, f"{rel} no longer holds any message", zeroed)]
