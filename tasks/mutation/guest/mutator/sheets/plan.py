"""Finding a workbook's units: the two homes' versions compared sheet by sheet. The plan matches
the sheets, finds the sheet and defined-name units itself, and the cell, feature and chart units
through its mixins (cell_units.py, chart_units.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from mutator.core import OfficePlan, Unit
from mutator.office import property_units
from mutator.ooxml import canon, moved_items, preceding
from mutator.sheets.book import Book
from mutator.sheets.cell_units import CellUnits, _Side
from mutator.sheets.chart_units import ChartUnits
from mutator.sheets.sheet_ops import (
    _names,
    ensure_sheet,
    import_sheet,
    move_sheet,
    put_name,
    remove_sheet,
    rename_sheet,
)

# --- finding the units ----------------------------------------------------------------------------------


class _Plan(CellUnits, ChartUnits, OfficePlan):
    """Everything compared between the two homes' versions of one workbook."""

    load = staticmethod(Book)

    def __init__(self, rel: str, initial: Path, golden: Path):
        super().__init__(rel, initial, golden)
        self.i, self.g = _Side(initial), _Side(golden)
        self.pairs = self._match()  # golden sheet -> initial sheet (None: added)
        self.removed = [s for s in self.i.sheets if s not in self.pairs.values()]
        self.changed_cells: set[tuple[str, str]] = set()  # (golden sheet, coord)
        self.ranged: list[tuple] = []  # features with a range the golden added or changed (for slips)

    def _match(self) -> dict:
        pairs = {g: g for g in self.g.sheets if g in self.i.sheets}
        left_i = [s for s in self.i.sheets if s not in pairs]
        for g in [s for s in self.g.sheets if s not in pairs]:

            def overlap(i_name, g_name=g):
                a = {(k, c.value) for k, c in self.i.wb[i_name]._cells.items() if c.value is not None}
                b = {(k, c.value) for k, c in self.g.wb[g_name]._cells.items() if c.value is not None}
                return len(a & b) / max(1, len(a | b))

            best = max(left_i, key=overlap, default=None)
            if best is not None and overlap(best) >= 0.3:
                pairs[g] = best
                left_i.remove(best)
            else:
                pairs[g] = None
        return pairs

    def i_name(self, g_name):
        return self.pairs.get(g_name)

    def g_name(self, i_name):
        return next((g for g, i in self.pairs.items() if i == i_name), None)

    def add(self, unit: Unit) -> Unit:
        self.units.append(unit)
        return unit

    def ensure(self, g_sheet: str):
        """For an op on the initial: the golden sheet's counterpart there, made empty if missing."""
        order = self.g.sheets

        def fn(dst: Book) -> str:
            name = self.i_name(g_sheet) or g_sheet
            ensure_sheet(dst, name, order, lambda x: self.i_name(x) or x)
            return name

        return fn

    # -- units -----------------------------------------------------------------------------------

    def find(self) -> list[Unit]:
        self._sheet_units()
        for g_sheet in self.g.sheets:
            start = len(self.units)
            self._cell_units(g_sheet)
            self._feature_units(g_sheet)
            self._chart_units(g_sheet)
            if self.i_name(g_sheet) is None:
                self._container(g_sheet, start)
        self._name_units()
        self.units += property_units("xlsx", self.rel, self.initial, self.golden, self.i.book, self.g.book)
        for unit, inner in self.containers:  # a container is a unit when something lies outside it
            if len(inner) > 1 and not any(id(u) not in inner for u in self.units):  # parts, nothing else
                self.units.remove(unit)
        return self.units

    def _contain(self, unit: Unit, start: int) -> None:
        """`unit` holds the units found from `start` on: it goes first among them."""
        self.units.insert(start, unit)
        self.containers.append((unit, {id(u) for u in self.units[start:]}))

    def _container(self, g_sheet: str, start: int) -> None:
        i_order = self.i.sheets

        def revert(dst, src):
            remove_sheet(dst, g_sheet)

        def apply(dst, src):
            after = preceding(self.g.sheets, g_sheet, lambda x: (self.i_name(x) or x) in dst.sheet_names())
            import_sheet(src, g_sheet, dst, g_sheet, (self.i_name(after) or after) if after else None)

        assert i_order is not None
        unit = Unit(
            "xlsx.sheet.added",
            self.rel,
            f"{self.rel}: sheet {g_sheet!r} added",
            revert=self.op("golden", revert),
            apply=self.op("initial", apply),
        )
        self._contain(unit, start)

    def _sheet_units(self) -> None:
        rel = self.rel
        for i_sheet in self.removed:

            def revert(dst, src, i_sheet=i_sheet):
                after = preceding(self.i.sheets, i_sheet, lambda x: self.g_name(x) in dst.sheet_names())
                import_sheet(src, i_sheet, dst, i_sheet, self.g_name(after) if after else None)

            def apply(dst, src, i_sheet=i_sheet):
                remove_sheet(dst, i_sheet)

            self.add(
                Unit(
                    "xlsx.sheet.removed",
                    rel,
                    f"{rel}: sheet {i_sheet!r} deleted",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )
        for g_sheet, i_sheet in self.pairs.items():
            if i_sheet is not None and i_sheet != g_sheet:

                def revert(dst, src, g=g_sheet, i=i_sheet):
                    rename_sheet(dst, g, i)

                def apply(dst, src, g=g_sheet, i=i_sheet):
                    rename_sheet(dst, i, g)

                self.add(
                    Unit(
                        "xlsx.sheet.renamed",
                        rel,
                        f"{rel}: sheet {i_sheet!r} renamed {g_sheet!r}",
                        revert=self.op("golden", revert),
                        apply=self.op("initial", apply),
                    )
                )
        matched_i = [s for s in self.i.sheets if self.g_name(s)]
        # next to the nearest sheet that kept its place (next to one that moved too, a move can be undone
        # into where it already is: a mutant identical to the golden workbook)
        moved = moved_items(matched_i, [self.pairs[g] for g in self.g.sheets if self.pairs[g]])
        for i_sheet in moved:
            g_sheet = self.g_name(i_sheet)

            def revert(dst, src, g=g_sheet, i=i_sheet):
                after = preceding(matched_i, i, lambda x: x not in moved)
                move_sheet(dst, g, self.g_name(after) if after else None)

            def apply(dst, src, g=g_sheet, i=i_sheet):
                matched_g = [x for x in self.g.sheets if self.pairs[x]]
                after = preceding(matched_g, g, lambda x: self.pairs[x] not in moved)
                move_sheet(dst, i, self.pairs[after] if after else None)

            self.add(
                Unit(
                    "xlsx.sheet.moved",
                    rel,
                    f"{rel}: sheet {g_sheet!r} moved",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )

    def _name_units(self) -> None:
        before, after = _names(self.i.book), _names(self.g.book)
        i_keys = {
            (name, self.g_name(scope) if scope else None): key for key in before for name, scope in [key]
        }
        for g_key in sorted(set(after) | set(i_keys), key=str):
            i_key = i_keys.get(g_key, (g_key[0], self.i_name(g_key[1]) if g_key[1] else None))
            was, now = before.get(i_key), after.get(g_key)
            if (
                was is not None
                and now is not None
                and canon(was, ("localSheetId",)) == canon(now, ("localSheetId",))
            ):
                continue

            def revert(dst, src, i_key=i_key, g_key=g_key):
                put_name(src, dst, i_key, g_key[1])

            def apply(dst, src, i_key=i_key, g_key=g_key):
                put_name(src, dst, g_key, i_key[1])

            state = "added" if was is None else "removed" if now is None else "changed"
            self.add(
                Unit(
                    "xlsx.name",
                    self.rel,
                    f"{self.rel}: defined name {g_key[0]!r} {state}",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )


@cache
def _plan(rel: str, initial: str, golden: str) -> _Plan:
    plan = _Plan(rel, Path(initial), Path(golden))
    plan.find()
    return plan


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    return _plan(rel, str(initial), str(golden)).units
