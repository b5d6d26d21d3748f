"""File-level change units and corruptions, for any home: files and folders added, removed, moved,
rewritten or re-moded, and symlinks. A rewritten file whose kind has a handler (see HANDLERS in
__main__.py) is refined into that kind's units instead."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

from mutator.core import Corruption, Homes, Unit

MAX_ENTRIES = 20_000  # as the host's state view: a home of millions of entries is not mutated


def listing(home: Path, unseen: list[str] | None = None) -> dict[str, tuple[str, str]]:
    """rel path -> (kind, fingerprint): "file" with sha256 and mode, "dir", "link" with its target;
    special files are left out (they cannot be copied into a mutant). What cannot be listed (a folder
    or file that cannot be read, a path past the kernel's PATH_MAX, entries past MAX_ENTRIES) is
    noted in `unseen`: the listing is then not the whole state, and no mutant may be built from it."""
    unseen = [] if unseen is None else unseen

    def note(path: str, why: str) -> None:
        rel = os.path.relpath(path, home)
        if len(rel) > 160:  # a path past PATH_MAX is thousands of bytes long
            rel = f"{rel[:80]}… ({len(rel)} bytes)"
        entry = f"{rel}: {why}"
        if len(unseen) < 50 and entry not in unseen:
            unseen.append(entry)

    found = {}
    for root, dirs, files in os.walk(home, onerror=lambda exc: note(exc.filename, exc.strerror)):
        for name in dirs + files:
            full = Path(root) / name
            if len(found) >= MAX_ENTRIES:
                note(str(full), f"more than {MAX_ENTRIES} entries")
                return found
            try:
                found.update(_entry(home, full))
            except OSError as exc:
                note(str(full), exc.strerror or type(exc).__name__)
    return found


def _entry(home: Path, full: Path) -> dict[str, tuple[str, str]]:
    rel = full.relative_to(home).as_posix()
    st = full.lstat()
    if stat.S_ISLNK(st.st_mode):
        return {rel: ("link", os.readlink(full))}
    if stat.S_ISDIR(st.st_mode):
        return {rel: ("dir", "")}
    if stat.S_ISREG(st.st_mode):
        digest = hashlib.sha256(full.read_bytes()).hexdigest()
        return {rel: ("file", f"{digest}:{stat.S_IMODE(st.st_mode):o}")}
    return {}


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _put(source: Path, rel: str):
    """An op that makes `rel` in a mutant home what `source` (in the other home) is."""

    def op(home: Path) -> None:
        target = home / rel
        _remove(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        elif source.is_dir():
            target.mkdir()
        else:
            shutil.copy2(source, target)

    return op


def _drop(rel: str):
    def op(home: Path) -> None:
        _remove(home / rel)

    return op


def _move(src: str, dst: str):
    def op(home: Path) -> None:
        (home / dst).parent.mkdir(parents=True, exist_ok=True)
        os.replace(home / src, home / dst)

    return op


def _chmod(rel: str, mode: int):
    def op(home: Path) -> None:
        os.chmod(home / rel, mode)

    return op


def _covered(rel: str, paths: set[str]) -> bool:
    """A folder whose contents are units of their own is not a unit (its files say it all)."""
    return any(p.startswith(rel + "/") for p in paths)


def file_units(homes: Homes, refine) -> list[Unit]:
    """The file-level units; `refine(rel)` returns the finer units of a rewritten file, or None."""
    before = {
        k: v for k, v in listing(homes.initial, homes.unseen).items() if not homes.is_incidental("file", k)
    }
    after = {
        k: v for k, v in listing(homes.golden, homes.unseen).items() if not homes.is_incidental("file", k)
    }
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    units: list[Unit] = []
    moved = _moves(before, after, added, removed)
    for src, dst in moved:
        units.append(
            Unit("file.moved", dst, f"{src} moved to {dst}", revert=_move(dst, src), apply=_move(src, dst))
        )
    moved_src, moved_dst = {s for s, _ in moved}, {d for _, d in moved}
    changed = set(added) | set(removed)
    for rel in added:
        if rel not in moved_dst and not (after[rel][0] == "dir" and _covered(rel, changed)):
            units.append(
                Unit(
                    f"{after[rel][0]}.added",
                    rel,
                    f"{rel} created",
                    revert=_drop(rel),
                    apply=_put(homes.golden / rel, rel),
                )
            )
    for rel in removed:
        if rel not in moved_src and not (before[rel][0] == "dir" and _covered(rel, changed)):
            units.append(
                Unit(
                    f"{before[rel][0]}.removed",
                    rel,
                    f"{rel} deleted",
                    revert=_put(homes.initial / rel, rel),
                    apply=_drop(rel),
                )
            )
    for rel in sorted(set(before) & set(after)):
        if before[rel] == after[rel]:
            continue
        units += _rewritten(homes, rel, before[rel], after[rel], refine)
    return units


def _rewritten(homes: Homes, rel: str, old: tuple, new: tuple, refine) -> list[Unit]:
    if old[0] == new[0] == "file":
        old_sha, old_mode = old[1].split(":")
        new_sha, new_mode = new[1].split(":")
        units = []
        if old_mode != new_mode:
            units.append(
                Unit(
                    "file.mode",
                    rel,
                    f"{rel} mode {old_mode} -> {new_mode}",
                    revert=_chmod(rel, int(old_mode, 8)),
                    apply=_chmod(rel, int(new_mode, 8)),
                )
            )
        if old_sha != new_sha:
            finer = refine(rel)
            units += (
                finer
                if finer
                else [
                    Unit(
                        "file.content",
                        rel,
                        f"{rel} rewritten",
                        revert=_put(homes.initial / rel, rel),
                        apply=_put(homes.golden / rel, rel),
                    )
                ]
            )
        return units
    return [
        Unit(
            f"{new[0]}.replaced",
            rel,
            f"{rel} changed from a {old[0]} to a {new[0]}",
            revert=_put(homes.initial / rel, rel),
            apply=_put(homes.golden / rel, rel),
        )
    ]


def _moves(before, after, added, removed) -> list[tuple[str, str]]:
    """(src, dst) pairs: a file removed at src and added at dst with the same content."""
    by_content = {}
    for rel in removed:
        if before[rel][0] == "file":
            by_content.setdefault(before[rel][1].split(":")[0], []).append(rel)
    moves = []
    for rel in added:
        if after[rel][0] == "file":
            sources = by_content.get(after[rel][1].split(":")[0])
            if sources:
                moves.append((sources.pop(0), rel))
    return moves


def file_corruptions(homes: Homes, units: list[Unit]) -> list[Corruption]:
    """An extra change the task never asked for: a file the golden state left untouched is deleted."""
    touched = {u.path for u in units}
    before = listing(homes.initial, homes.unseen)
    after = listing(homes.golden, homes.unseen)
    bystanders = sorted(
        rel
        for rel, (kind, fp) in after.items()
        if kind == "file"
        and before.get(rel) == (kind, fp)
        and rel not in touched
        and not homes.is_incidental("file", rel)
    )
    if not bystanders:
        return []
    rel = bystanders[0]
    return [
        Corruption("corrupt.extra_change", rel, f"{rel}, which the task leaves alone, is deleted", _drop(rel))
    ]
