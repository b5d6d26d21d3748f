"""Playlists (XSPF and M3U/M3U8, matched by suffix; the format is read from the content): one unit per
entry added or removed, and one for the order of the entries both states keep.

An entry is the media it points at: an XSPF track's `<location>` (a file:// URI, decoded), an M3U
entry's path or URL (relative paths resolved against the playlist's folder, percent-escapes decoded,
as VLC writes them), with the lines or elements that describe it (`#EXTINF`, `#EXTVLCOPT`; title,
duration) carried along. Entries are compared as a multiset: a track listed twice is two entries.
Corruption: the same entries written in the other format under the same name (an XSPF body in a
.m3u file, or the reverse) — a playlist VLC reads by its content, not the one asked for.
"""

from __future__ import annotations

import copy
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from mutator.core import Corruption, Unit

SUFFIXES = (".xspf", ".m3u", ".m3u8")
XSPF_NS = "http://xspf.org/ns/0/"


def _resolve(reference: str, folder: str) -> str:
    reference = reference.strip()
    if reference.startswith("file://"):
        return os.path.normpath(unquote(urlparse(reference).path))
    if "://" in reference:
        return reference
    local = unquote(reference)
    return os.path.normpath(local if local.startswith("/") else os.path.join(folder, local))


def _kind(text: str) -> str:
    body = text.lstrip("\ufeff").lstrip()
    return "xspf" if body.startswith(("<?xml", "<playlist")) else "m3u"


class Playlist:
    """A playlist's entries as (key, payload) blocks: M3U lines, or XSPF <track> elements."""

    def __init__(self, path: Path, rel: str) -> None:
        self.rel = rel
        self.folder = os.path.dirname("/home/user/" + rel)
        text = path.read_text(encoding="utf-8", errors="replace")
        self.kind = _kind(text)
        if self.kind == "xspf":
            ET.register_namespace("", XSPF_NS)
            ET.register_namespace("vlc", "http://www.videolan.org/vlc/playlist/ns/0/")
            self.root = ET.fromstring(text.lstrip("\ufeff").encode("utf-8"))
            self.track_list = next(n for n in self.root.iter() if n.tag.rsplit("}", 1)[-1] == "trackList")
            self.blocks = [(self._track_key(t), t) for t in list(self.track_list)]
        else:
            self.head, self.blocks, pending = [], [], []
            for line in text.lstrip("\ufeff").splitlines():
                if not line.strip():
                    continue
                if line.startswith("#"):
                    top = not self.blocks and not pending and line.startswith(("#EXTM3U", "#PLAYLIST"))
                    (self.head if top else pending).append(line)
                    continue
                self.blocks.append((_resolve(line, self.folder), [*pending, line]))
                pending = []
            self.tail = pending

    def _track_key(self, track) -> str:
        for node in track.iter():
            if node.tag.rsplit("}", 1)[-1] == "location" and (node.text or "").strip():
                return _resolve(node.text, self.folder)
        return ""

    def keys(self) -> list[str]:
        return [key for key, _ in self.blocks]

    def save(self, path: Path) -> None:
        if self.kind == "xspf":
            for child in list(self.track_list):
                self.track_list.remove(child)
            for _, track in self.blocks:
                self.track_list.append(track)
            body = ET.tostring(self.root, encoding="unicode")
            path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n", encoding="utf-8")
        else:
            lines = [*self.head, *(line for _, block in self.blocks for line in block), *self.tail]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _edit(rel: str, change):
    def op(home: Path) -> None:
        playlist = Playlist(home / rel, rel)
        change(playlist)
        playlist.save(home / rel)

    return op


def _remove(key: str):
    def change(playlist: Playlist) -> None:
        at = playlist.keys().index(key)
        del playlist.blocks[at]

    return change


def _insert(key: str, payload, index: int):
    def change(playlist: Playlist) -> None:
        playlist.blocks.insert(min(index, len(playlist.blocks)), (key, copy.deepcopy(payload)))

    return change


def _reorder(order: list[str]):
    """Put the entries `order` names back in that relative order, in the places they hold."""

    def change(playlist: Playlist) -> None:
        wanted = list(order)
        slots = [i for i, (key, _) in enumerate(playlist.blocks) if key in wanted]
        pool = {}
        for i in slots:
            pool.setdefault(playlist.blocks[i][0], []).append(playlist.blocks[i])
        for i in slots:
            key = next(k for k in wanted if pool.get(k))
            wanted.remove(key)
            playlist.blocks[i] = pool[key].pop(0)

    return change


def _common(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """The entries both lists keep (as a multiset), in each list's order."""

    def kept(order: list[str], other: list[str]) -> list[str]:
        pool, found = list(other), []
        for key in order:
            if key in pool:
                pool.remove(key)
                found.append(key)
        return found

    return kept(before, after), kept(after, before)


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old, new = Playlist(initial, rel), Playlist(golden, rel)
    if old.kind != new.kind:
        return None  # rewritten in another format: the file is one unit
    before, after = old.keys(), new.keys()
    found = []
    remaining = list(before)
    for index, (key, payload) in enumerate(new.blocks):
        if key in remaining:
            remaining.remove(key)
            continue
        found.append(
            Unit(
                "playlist.entry",
                rel,
                f"{rel}: entry {key} added",
                revert=_edit(rel, _remove(key)),
                apply=_edit(rel, _insert(key, payload, index)),
            )
        )
    remaining = list(after)
    for index, (key, payload) in enumerate(old.blocks):
        if key in remaining:
            remaining.remove(key)
            continue
        found.append(
            Unit(
                "playlist.entry",
                rel,
                f"{rel}: entry {key} removed",
                revert=_edit(rel, _insert(key, payload, index)),
                apply=_edit(rel, _remove(key)),
            )
        )
    kept_before, kept_after = _common(before, after)
    if kept_before != kept_after:
        found.append(
            Unit(
                "playlist.order",
                rel,
                f"{rel}: entries reordered",
                revert=_edit(rel, _reorder(kept_before)),
                apply=_edit(rel, _reorder(kept_after)),
            )
        )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    playlist = Playlist(golden, rel)

    def other_format(home: Path) -> None:
        keys = Playlist(home / rel, rel).keys()
        if playlist.kind == "xspf":
            body = "#EXTM3U\n" + "".join(f"{k}\n" for k in keys)
        else:
            tracks = "".join(
                f"<track><location>{'file://' + quote(k) if k.startswith('/') else k}</location></track>"
                for k in keys
            )
            body = f'<?xml version="1.0" encoding="UTF-8"?>\n<playlist xmlns="{XSPF_NS}" version="1"><trackList>{tracks}</trackList></playlist>\n'
        (home / rel).write_text(body, encoding="utf-8")

    other = "M3U" if playlist.kind == "xspf" else "XSPF"
    return [
        Corruption(
            "corrupt.wrong_format",
            rel,
            f"{rel} lists the same entries as {other}, not {playlist.kind.upper()}",
            other_format,
        )
    ]
