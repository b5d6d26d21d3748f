"""python3 -m mutator CONFIG_JSON: plan and build the mutants of one tuple, inside the sandbox.

CONFIG_JSON: {"initial": dir, "golden": dir, "out": dir, "seed": str, "max_partial": int,
"max_corruptions": int, "incidental": {kind: [glob, …]}}. The two homes are mounted read-only; each
mutant's home is written to <out>/<id>/, and <out>/plan.json lists them:
{"units": [...], "mutants": [...], "skipped": [...], "truncated": [...]}; "truncated" names what the
listings could not see, and then no mutant is built.
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

from mutator import bookmarks, images, jsonc, mbox, mozprefs, msgfilters, playlists, sqlite, textlines, vlcrc
from mutator.core import Homes, build, corruption_mutants, partial_reverts, select
from mutator.files import file_corruptions, file_units

# suffix -> module with units(rel, initial, golden) and corruptions(rel, initial, golden)
HANDLERS = {suffix: jsonc for suffix in jsonc.SUFFIXES}
HANDLERS.update({suffix: bookmarks for suffix in bookmarks.SUFFIXES})  # Chromium's Bookmarks: per node
HANDLERS.update(
    {suffix: module for module in (mozprefs, msgfilters) for suffix in module.SUFFIXES}
)  # Thunderbird
HANDLERS.update({suffix: images for suffix in images.SUFFIXES})  # raster images (GIMP's exports)
HANDLERS.update({suffix: module for module in (vlcrc, playlists) for suffix in module.SUFFIXES})  # VLC
HANDLERS.update({suffix: textlines for suffix in textlines.SUFFIXES})  # dotfiles, text and CSV reports
for name in ("sheets", "docs", "decks"):  # office kinds, when their handler module is present
    try:
        module = __import__(f"mutator.{name}", fromlist=["SUFFIXES"])
    except ImportError:
        continue
    HANDLERS.update({suffix: module for suffix in module.SUFFIXES})


OFFICE_SUFFIXES = (".xlsx", ".docx", ".pptx")


def _holds_its_kind(rel: str, path: Path) -> bool:
    """Whether `path` is what its suffix says as far as its kind's corruptions need (an office file
    is a zip). One that is not — the files families give stand-in documents real magic bytes and
    nothing more — is opaque bytes to its task: its kind's corruptions do not apply to it."""
    return not rel.lower().endswith(OFFICE_SUFFIXES) or zipfile.is_zipfile(path)


def _handler(rel: str, homes: Homes | None = None):
    """The handler of `rel` by its suffix (or its name: Chromium's profile files have none), else an
    SQLite database by its header, in either state."""
    found = next((module for suffix, module in HANDLERS.items() if rel.lower().endswith(suffix)), None)
    databases = found is None and homes is not None
    if databases and any(sqlite.is_database(home / rel) for home in (homes.golden, homes.initial)):
        return sqlite
    if databases and any(mbox.is_mbox(home / rel) for home in (homes.golden, homes.initial)):
        return mbox  # a mail folder (Thunderbird's have no suffix), by its content
    return found


def plan(homes: Homes, seed: str, max_partial: int, max_corruptions: int, other_units: int = 0):
    skipped = []

    def refine(rel: str):
        module = _handler(rel, homes)
        if module is None:
            return None
        try:
            return module.units(rel, homes.initial / rel, homes.golden / rel)
        except Exception as exc:  # unparseable: the file stays one file-level unit
            skipped.append({"path": rel, "why": f"{module.__name__}: {type(exc).__name__}: {exc}"[:300]})
            return None

    units = file_units(homes, refine)
    corruptions = file_corruptions(homes, units)
    for rel in sorted({u.path for u in units}):
        module = _handler(rel, homes)
        golden = homes.golden / rel
        if module is None or not golden.is_file() or golden.is_symlink() or not _holds_its_kind(rel, golden):
            continue
        initial = homes.initial / rel
        try:
            corruptions += module.corruptions(rel, initial if initial.is_file() else None, golden)
        except Exception as exc:
            skipped.append({"path": rel, "why": f"corruptions: {type(exc).__name__}: {exc}"[:300]})
    # The partial-revert budget is shared with the host's hub units, in proportion to the units.
    budget = max_partial if not other_units else round(max_partial * len(units) / (len(units) + other_units))
    mutants = select(partial_reverts(units, other_units), max(budget, 1 if units else 0), seed)
    mutants += select(corruption_mutants(corruptions), max_corruptions, seed)
    return units, mutants, skipped


def main(config: dict) -> None:
    homes = Homes(Path(config["initial"]), Path(config["golden"]), config.get("incidental", {}))
    out = Path(config["out"])
    out.mkdir(parents=True, exist_ok=True)
    units, mutants, skipped = plan(
        homes, config["seed"], config["max_partial"], config["max_corruptions"], config.get("other_units", 0)
    )
    built = []
    # An incomplete listing is not the state: its mutants would test a reward on part of it only.
    for mutant in mutants if not homes.unseen else []:
        why = build(mutant, homes, out / mutant.id)
        if why is None:
            built.append(mutant.record())
        else:
            skipped.append({"path": mutant.path, "mutant": mutant.id, "why": why})
    result = {
        "units": [{"kind": u.kind, "path": u.path, "what": u.what} for u in units],
        "mutants": built,
        "skipped": skipped,
        "truncated": homes.unseen[:50],
    }
    (out / "plan.json").write_text(json.dumps(result), encoding="utf-8")
    print(f"{len(units)} units, {len(built)} mutants, {len(skipped)} skipped, {len(homes.unseen)} unseen")


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
