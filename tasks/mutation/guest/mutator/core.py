"""Change units, mutants, and how they are built from two homes (runs inside the sandbox).

A *change unit* is the smallest change between the initial and the golden home that matters for its
kind of state: a file added, removed, moved or rewritten; a spreadsheet cell; a paragraph; a slide; a
JSON key. A *partial-revert mutant* holds a non-empty strict subset of the units: the golden home
with one unit reverted (`drop`), or the initial home with one unit applied (`only`). A *corruption
mutant* is the golden home damaged in a way a careless agent would damage it. A faithful reward
scores every mutant below 1.0.

Units and corruptions come from handlers (files.py for any file; the sheets/, docs/ and decks/
packages and jsonc.py refine a rewritten file of their kind). A handler that cannot parse a file gives nothing,
and the file stays one file-level unit.
"""

from __future__ import annotations

import fnmatch
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

Op = Callable[[Path], None]  # edits the mutant's home in place


@dataclass
class Unit:
    kind: str  # "file.added", "xlsx.cell", "docx.paragraph", …
    path: str  # the file, relative to the home
    what: str  # what the golden state changed here, for people
    revert: Op | None = None  # on a copy of the golden home: undo this change
    apply: Op | None = None  # on a copy of the initial home: make only this change


@dataclass
class Corruption:
    kind: str  # "corrupt.formula_to_value", "corrupt.wrong_format", "corrupt.extra_change", …
    path: str
    what: str
    make: Op  # on a copy of the golden home


@dataclass
class Mutant:
    id: str
    base: str  # "golden" or "initial": the home (and hub state) it starts from
    kind: str  # "partial_revert" or "corruption"
    unit_kind: str
    path: str
    what: str
    op: Op = field(repr=False)

    def record(self) -> dict:
        return {
            "id": self.id,
            "base": self.base,
            "kind": self.kind,
            "unit_kind": self.unit_kind,
            "path": self.path,
            "what": self.what,
        }


@dataclass
class Homes:
    initial: Path
    golden: Path
    incidental: dict[str, list[str]]
    unseen: list[str] = field(default_factory=list)  # what the listings could not see (files.listing)

    def is_incidental(self, kind: str, rel: str) -> bool:
        return any(fnmatch.fnmatch(rel, pattern) for pattern in self.incidental.get(kind, ()))


def partial_reverts(units: list[Unit], other_units: int = 0) -> list[Mutant]:
    """Every `drop` and `only` mutant the units allow, counting `other_units` the host handles (hub
    state); none when there is a single unit in all (no non-empty strict subset of it exists)."""
    total = len(units) + other_units
    if total < 2:
        return []
    mutants = []
    for n, unit in enumerate(units):
        if unit.revert is not None:
            mutants.append(
                Mutant(
                    f"drop-{n:03d}",
                    "golden",
                    "partial_revert",
                    unit.kind,
                    unit.path,
                    f"all changes but: {unit.what}",
                    unit.revert,
                )
            )
        if unit.apply is not None and total > 2:  # with two units, only(a) is drop(b)
            mutants.append(
                Mutant(
                    f"only-{n:03d}",
                    "initial",
                    "partial_revert",
                    unit.kind,
                    unit.path,
                    f"only this change: {unit.what}",
                    unit.apply,
                )
            )
    return mutants


def corruption_mutants(corruptions: list[Corruption]) -> list[Mutant]:
    return [
        Mutant(f"corrupt-{n:03d}", "golden", "corruption", c.kind, c.path, c.what, c.make)
        for n, c in enumerate(corruptions)
    ]


def select(mutants: list[Mutant], limit: int, seed: str) -> list[Mutant]:
    """At most `limit` mutants, the same ones for the same seed; drops before onlys when cut."""
    if len(mutants) <= limit:
        return mutants
    drops = [m for m in mutants if m.base == "golden"]
    onlys = [m for m in mutants if m.base == "initial"]
    rng = random.Random(seed)
    keep = rng.sample(drops, min(len(drops), (limit + 1) // 2 if onlys else limit))
    keep += rng.sample(onlys, min(len(onlys), limit - len(keep)))
    order = {id(m): i for i, m in enumerate(mutants)}
    return sorted(keep, key=lambda m: order[id(m)])


def copy_regular(src: str, dst: str) -> None:
    """copytree's copy function: regular files only (a FIFO would block the copy; sockets and devices
    cannot be copied), so special files a script left in a home are simply not part of a mutant."""
    import os
    import stat

    if stat.S_ISREG(os.lstat(src).st_mode):
        shutil.copy2(src, dst, follow_symlinks=False)


def build(mutant: Mutant, homes: Homes, out: Path) -> str | None:
    """Write the mutant's home to `out`; returns why it could not be built, or None."""
    base = homes.golden if mutant.base == "golden" else homes.initial
    try:
        shutil.copytree(base, out, symlinks=True, copy_function=copy_regular)
        mutant.op(out)
    except Exception as exc:  # a mutant that cannot be built is skipped (and counted), never fatal
        shutil.rmtree(out, ignore_errors=True)
        return f"{type(exc).__name__}: {exc}"[:300]
    return None


class OfficePlan:
    """The units of one rewritten office file, compared between the two homes. Subclasses say how
    to open a file of their kind (`load`, returning an object with `.save(path)`); `op` turns
    fn(dst, src) into an op on the mutant's copy, src being the same file in the other home."""

    def __init__(self, rel: str, initial: Path, golden: Path) -> None:
        self.rel, self.initial, self.golden = rel, initial, golden
        self.units: list[Unit] = []
        self.touched: set[int] = set()  # items of the golden file some unit changes
        self.containers: list[tuple[Unit, set[int]]] = []  # (container unit, ids of the units inside it)

    @staticmethod
    def load(path: Path):
        raise NotImplementedError

    def op(self, base: str, fn) -> Op:
        rel, source, load = self.rel, self.initial if base == "golden" else self.golden, self.load

        def run(home: Path) -> None:
            target = home / rel
            dst = load(target)
            fn(dst, load(source))
            dst.save(target)

        return run

    def unit(self, kind: str, what: str, revert, apply, touches: int | None = None) -> Unit:
        """revert(dst_golden, src_initial) and apply(dst_initial, src_golden) become one Unit."""
        unit = Unit(
            kind,
            self.rel,
            f"{self.rel}: {what}",
            revert=self.op("golden", revert),
            apply=self.op("initial", apply) if apply else None,
        )
        self.units.append(unit)
        if touches is not None:
            self.touched.add(touches)
        return unit
