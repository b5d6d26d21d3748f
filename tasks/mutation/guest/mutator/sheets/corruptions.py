"""The corruptions a careless agent makes in a workbook: a formula replaced by its value, an
off-by-one range (in a formula, a validation, a conditional format or a chart's series), CSV text
under the .xlsx name, and a change to a cell the task leaves alone. Whether a slip changes what a
cell shows is decided by the reward kit's own formula evaluator (skills/kit/guest)."""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from pathlib import Path

from mutator.core import Corruption
from mutator.office import wrong_format
from mutator.ooxml import children, q, short
from mutator.sheets.book import Book, C, _ref
from mutator.sheets.cell_ops import put_value
from mutator.sheets.chart_ops import charts_of
from mutator.sheets.plan import _Plan, _plan
from mutator.sheets.sheet_ops import _keyed

KIT = "/opt/cuagym/mutation/kit"  # skills/kit/guest, bound by the host: the reward kit's evaluator


# --- corruptions -----------------------------------------------------------------------------------------


@cache
def _kit() -> dict:
    """The reward kit's formula evaluator (skills/kit/guest/sheets.py and the formula_*.py modules it
    is split into, bound read-only by the host): their functions are read as source into one
    namespace, the way the kit ships them into scripts (where they find each other by name)."""
    import ast
    import os

    folder = Path(os.environ.get("MUTATOR_KIT", KIT))
    namespace: dict = {"HOME": Path("/home/user")}
    for path in [folder / "sheets.py", *sorted(folder.glob("formula_*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
    return namespace


_RANGE = re.compile(r"(\$?)([A-Z]{1,3})(\$?)(\d+):(\$?)([A-Z]{1,3})(\$?)(\d+)")


def off_by_one(formula: str, at_start: bool = False) -> str | None:
    """The formula with its first range one row (or one column) short, A2:A10 -> A2:A9 (`at_start`:
    A3:A10), and every range of the same extent with it (SUMIFS's ranges stay the same size, as a
    real slip keeps them)."""
    from openpyxl.utils.cell import column_index_from_string as index
    from openpyxl.utils.cell import get_column_letter as letter

    found = [m for m in _RANGE.finditer(formula) if formula[: m.start()].count('"') % 2 == 0]
    for first in found:
        _, c1, _, r1, _, c2, _, r2 = first.groups()
        if int(r2) > int(r1):
            same_extent = [m for m in found if (m.group(4), m.group(8)) == (r1, r2)]
            parts = [list(m.groups()) for m in same_extent]
            for g in parts:
                g[3 if at_start else 7] = str(int(r1) + 1 if at_start else int(r2) - 1)
        elif index(c2) > index(c1):
            same_extent = [m for m in found if (m.group(2), m.group(6)) == (c1, c2)]
            parts = [list(m.groups()) for m in same_extent]
            for g in parts:
                g[1 if at_start else 5] = letter(index(c1) + 1 if at_start else index(c2) - 1)
        else:
            continue
        out, at = [], 0
        for m, g in zip(same_extent, parts, strict=True):
            out += [formula[at : m.start()], "".join(g[:4]) + ":" + "".join(g[4:])]
            at = m.end()
        return "".join(out) + formula[at:]
    return None


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    import openpyxl

    plan = _plan(rel, str(initial), str(golden)) if initial is not None else None
    wb = plan.g.wb if plan else openpyxl.load_workbook(golden)
    found: list[Corruption] = []

    def in_scope(sheet, coord):
        return plan is None or (sheet, coord) in plan.changed_cells

    formulas = [
        (ws.title, cell.coordinate, cell.value)
        for ws in wb.worksheets
        for cell in _cells_in_order(ws)
        if isinstance(cell.value, str) and cell.value.startswith("=") and in_scope(ws.title, cell.coordinate)
    ]
    for sheet, coord, formula in formulas:
        value = _value(golden, wb, sheet, coord, formula)
        if value is None:
            continue
        found.append(
            Corruption(
                "corrupt.formula_to_value",
                rel,
                f"{rel}: '{sheet}'!{coord} {formula} replaced by its value {short(value)}",
                _set(rel, sheet, coord, value),
            )
        )
        break
    slips = [(s, c, f, off_by_one(f, at_start)) for s, c, f in formulas for at_start in (False, True)]
    slips = [
        (f"'{s}'!{c} {f} -> {new}", _set(rel, s, c, new), (s, c, f, new)) for s, c, f, new in slips if new
    ]
    differs = [_differs(golden, wb, *slip[2]) for slip in slips]
    shown = [slip for slip, d in zip(slips, differs, strict=True) if d]  # it changes what the cell shows
    unknown = [slip for slip, d in zip(slips, differs, strict=True) if d is None]
    options = shown[:1] + _range_slips(rel, golden, plan) + unknown
    if options:
        found.append(Corruption("corrupt.off_by_one", rel, f"{rel}: {options[0][0]}", options[0][1]))
    counts = {}
    for sheet, _ in plan.changed_cells if plan else ():
        counts[sheet] = counts.get(sheet, 0) + 1
    working = max(counts, key=counts.get) if counts else wb.active.title  # the sheet the task works on
    found.append(wrong_format("CSV", rel, lambda path: _as_csv(wb[working])))
    if plan is not None:
        extra = _bystander(plan)
        if extra is not None:
            sheet, coord, value, new = extra
            found.append(
                Corruption(
                    "corrupt.extra_change",
                    rel,
                    f"{rel}: '{sheet}'!{coord}, which the task leaves alone, "
                    f"changed {short(value)} -> {short(new)}",
                    _set(rel, sheet, coord, new),
                )
            )
    return found


def _range_slips(rel: str, golden: Path, plan: _Plan | None) -> list[tuple]:
    """Off-by-one slips in the ranges of features the golden made: a data validation's or a
    conditional format's cells, a chart's series (every range of the chart one row short, as when
    the selection missed the last row); (what, op) each."""
    book = plan.g.book if plan else Book(golden)
    ranged = (
        plan.ranged
        if plan
        else [
            *(
                ("feature", s, c, t, k)
                for s in book.sheet_names()
                for c, t in (("dataValidations", "dataValidation"), (None, "conditionalFormatting"))
                for k in _keyed(book.sheet(s), c, t)
            ),
            *(("chart", s, n) for s in book.sheet_names() for n in range(len(charts_of(book, s)))),
        ]
    )
    wb = plan.g.wb if plan else None
    found = []
    for entry in ranged:
        if entry[0] == "feature":
            _, sheet, container, tag, key = entry
            for at_start in (False, True):
                shorter = off_by_one(key.split()[-1], at_start)
                if shorter is None:
                    continue
                if tag == "conditionalFormatting" and not _format_shows(
                    golden, wb, book, sheet, key, key.split()[-1], shorter
                ):
                    continue  # the cells the slip leaves out show no format either way: no slip at all
                new = " ".join([*key.split()[:-1], shorter])
                found.append((f"'{sheet}' {tag} {key} -> {new}", _slip_op(rel, sheet, entry, new)))
                break
        else:
            _, sheet, n = entry
            refs = [
                f.text
                for f in book.xml(charts_of(book, sheet)[n][1]).iter(q(C, "f"))
                if off_by_one(f.text or "")
            ]
            if refs:
                what = f"'{sheet}' chart {n + 1} ranges one row short ({refs[0]} -> {off_by_one(refs[0])})"
                found.append((what, _slip_op(rel, sheet, entry, None)))
    return found


def _format_shows(golden: Path, wb, book: Book, sheet: str, key: str, area: str, shorter: str) -> bool:
    """Some cell of `area` that `shorter` leaves out meets a rule of the conditional format `key`
    (cellIs and expression rules are evaluated with the kit; any other kind of rule counts as met)."""
    import operator

    from openpyxl.formula.translate import Translator
    from openpyxl.utils.cell import range_boundaries

    if wb is None:
        return True
    c0, r0, c1, r1 = range_boundaries(area)
    d0, s0, d1, s1 = range_boundaries(shorter)
    left_out = [
        _ref(r, c)
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
        if not (s0 <= r <= s1 and d0 <= c <= d1)
    ]
    compare = {
        "greaterThan": operator.gt,
        "lessThan": operator.lt,
        "greaterThanOrEqual": operator.ge,
        "lessThanOrEqual": operator.le,
        "equal": operator.eq,
        "notEqual": operator.ne,
    }
    element = _keyed(book.sheet(sheet), None, "conditionalFormatting")[key]
    for rule in children(element, "cfRule"):
        formulas = [f.text or "" for f in children(rule, "formula")]
        if rule.get("type") not in ("cellIs", "expression") or not formulas:
            return True
        for coord in left_out:
            shown = [
                _evaluate(
                    golden, wb, sheet, Translator("=" + f, origin=_ref(r0, c0)).translate_formula(coord)
                )
                for f in formulas
            ]
            if rule.get("type") == "expression":
                if shown[0] is None or shown[0]:
                    return True
                continue
            value = wb[sheet][coord].value
            value = (
                _value(golden, wb, sheet, coord, value)
                if isinstance(value, str) and value.startswith("=")
                else value
            )
            numbers = [v for v in [value, *shown] if isinstance(v, int | float) and not isinstance(v, bool)]
            if len(numbers) != 1 + len(shown):
                return True  # not numbers: cannot tell
            if rule.get("operator") in compare:
                if compare[rule.get("operator")](numbers[0], numbers[1]):
                    return True
            elif rule.get("operator") in ("between", "notBetween") and len(numbers) == 3:
                inside = min(numbers[1:]) <= numbers[0] <= max(numbers[1:])
                if inside == (rule.get("operator") == "between"):
                    return True
            else:
                return True
    return False


def _slip_op(rel: str, sheet: str, entry: tuple, new: str | None):
    def op(home: Path) -> None:
        book = Book(home / rel)
        if entry[0] == "feature":
            _, _, container, tag, key = entry
            _keyed(book.sheet(sheet, edit=True), container, tag)[key].set("sqref", new)
        else:
            root = book.xml(charts_of(book, sheet)[entry[2]][1], edit=True)
            for f in root.iter(q(C, "f")):
                f.text = off_by_one(f.text or "") or f.text
            for cached in list(root.iter(q(C, "numCache"), q(C, "strCache"))):
                cached.getparent().remove(cached)
        book.save(home / rel)

    return op


def _cells_in_order(ws):
    return [ws._cells[k] for k in sorted(ws._cells)]


@cache
def _values(path: Path):
    import openpyxl

    return openpyxl.load_workbook(path, data_only=True)


def _value(path: Path, wb, sheet: str, coord: str, formula: str):
    """The formula's value: LibreOffice's cached one if the file has it, else the kit's evaluation."""
    cached = _values(path)[sheet][coord].value
    return cached if cached is not None else _evaluate(path, wb, sheet, formula)


def _evaluate(path: Path, wb, sheet: str, formula: str):
    """The kit's value of `formula` on `sheet` (None when it cannot say), as Calc would show it."""
    try:
        value = _kit()["evaluate_formula"]({"f": wb, "v": _values(path)}, sheet, formula)
    except (ValueError, KeyError, OSError, SyntaxError, ZeroDivisionError, TypeError, RecursionError):
        return None
    if isinstance(value, float):
        value = float(f"{value:.15g}")
        return int(value) if value.is_integer() else value
    return value


def _differs(path: Path, wb, sheet: str, coord: str, formula: str, shorter: str) -> bool | None:
    """Whether the slip shows a different value (None: the kit cannot tell). A slip that shows the
    same value is an equivalent mutant: any reward rightly passes it."""
    was, now = _value(path, wb, sheet, coord, formula), _evaluate(path, wb, sheet, shorter)
    return None if was is None or now is None else was != now


def _set(rel: str, sheet: str, coord: str, value):
    def op(home: Path) -> None:
        book = Book(home / rel)
        put_value(book, sheet, coord, value)
        book.save(home / rel)

    return op


def _as_csv(ws) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in ws.iter_rows(values_only=True):
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _bystander(plan: _Plan):
    """A data cell (below a header row, not a formula) the golden left alone: the middle one of the
    numbers in the sheets the task works on, else of the text cells; and a changed value for it."""
    touched = {s for s, _ in plan.changed_cells} or set(plan.g.sheets)
    numbers, texts = [], []
    for sheet in [s for s in plan.g.sheets if plan.i_name(s)]:
        gws, iws = plan.g.wb[sheet], plan.i.wb[plan.i_name(sheet)]
        for (row, col), cell in sorted(gws._cells.items()):
            value = cell.value
            if (
                row < 2
                or value is None
                or (sheet, cell.coordinate) in plan.changed_cells
                or cell.data_type == "f"
            ):
                continue
            other = iws._cells.get((row, col))
            if other is None or other.value != value:
                continue
            if isinstance(value, int | float) and not isinstance(value, bool):
                numbers.append((sheet in touched, sheet, cell.coordinate, value))
            elif isinstance(value, str) and value.strip():
                texts.append((sheet in touched, sheet, cell.coordinate, value))
    for pool in (numbers, texts):
        preferred = [x for x in pool if x[0]] or pool
        if preferred:
            _, sheet, coord, value = preferred[len(preferred) // 2]
            new = value + 1 if isinstance(value, int | float) else value + " (edited)"
            return sheet, coord, value, new
    return None
