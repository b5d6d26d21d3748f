"""Guest helpers shared by the Calc families: a family's guest functions call them, and the renderer
ships every one a script reaches.

Each function is shipped as source into generated scripts, so each one imports what it needs inside
its body and uses only the standard library and openpyxl (and reads no global name but `HOME`).

Why an evaluator: openpyxl never computes formulas. A file saved by LibreOffice carries cached
values (read with data_only=True); a file written by openpyxl (a golden patch) carries none. So a
reward asks `computed_value`, which prefers LibreOffice's cached value and otherwise evaluates the
formula itself: any equivalent formula (SUMIF vs SUMIFS, B2*C2 vs PRODUCT(B2;C2)) earns credit.
"""

from __future__ import annotations

from skills.kit.guest import HOME
from skills.kit.guest.formula_parser import formula_tokens, parse_comparison, peek_token
from skills.kit.guest.formula_values import calc_scalar, find_sheet, is_formula

__all__ = [  # find_sheet and is_formula live with the evaluator's values; families take them from here
    "close_to",
    "computed_value",
    "evaluate_formula",
    "find_sheet",
    "formula_shows",
    "is_formula",
    "new_table",
    "open_book",
    "open_sheet",
    "rows_kept",
    "save_book",
    "total_shown",
]


def open_book(path):
    """Both views of a workbook: {"f": formulas as written, "v": values cached by the last save}."""
    import openpyxl

    return {"f": openpyxl.load_workbook(path), "v": openpyxl.load_workbook(path, data_only=True)}


def close_to(value, expected, tol=0.005):
    """A number within `tol` of `expected`; numeric text ("1,234.50") counts, bools and None do not."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, str):
        try:
            value = float(value.replace(",", "").strip())
        except ValueError:
            return False
    return isinstance(value, int | float) and abs(float(value) - float(expected)) <= tol


def computed_value(book, sheet, row, col, _depth=0):
    """What Calc shows in sheet!(row, col): LibreOffice's cached value if the file has one, else the
    formula evaluated by `evaluate_formula`; plain cells give their value. Raises ValueError when a
    formula uses something the evaluator does not know, or evaluates to a Calc error (the message
    then starts with the code, e.g. '#DIV/0!'; a cached error comes back as that text)."""
    raw = find_sheet(book["f"], sheet).cell(row=row, column=col).value
    raw = getattr(raw, "text", raw)  # ArrayFormula
    if not (isinstance(raw, str) and raw.startswith("=") and len(raw) > 1):
        return raw
    cached = find_sheet(book["v"], sheet).cell(row=row, column=col).value
    if cached is not None:
        return cached
    return evaluate_formula(book, sheet, raw, _depth + 1)


def evaluate_formula(book, sheet, formula, _depth=0):
    """Evaluate an Excel-syntax formula (what LibreOffice writes into .xlsx: commas, Sheet!A1) over
    the workbook: arithmetic, comparison, &, and SUM PRODUCT SUMPRODUCT AVERAGE MIN MAX COUNT COUNTA
    ROUND ABS IF SUMIF SUMIFS COUNTIF COUNTIFS AVERAGEIF TRUE FALSE. Semicolon separators are
    accepted too. It follows LibreOffice Calc 7.4 (tests/test_formula_evaluator.py checks it against
    LibreOffice's own results): booleans and dates are numbers, text sorts above every number, a
    blank is 0 or "", criteria know wildcards (* ? ~) and compare text without case, IF evaluates only
    the branch it takes. A Calc error (#DIV/0!, #VALUE!, #NUM!) raises ValueError whose message starts
    with the code; so does anything the evaluator does not know (unknown function, array arithmetic,
    a range used as one value), with a message not starting with '#'.

    The reader is formula_parser.py, the functions formula_functions.py, criteria
    formula_criteria.py, values formula_values.py; they share `ctx`, which hands them
    `computed_value` so that a range's cells are read the way this module reads a cell."""
    if _depth > 40:
        raise ValueError("formula nesting too deep (circular reference?)")
    ctx = {
        "book": book,
        "sheet": sheet,
        "formula": formula,
        "depth": _depth,
        "tokens": formula_tokens(formula),
        "at": 0,
        "computed_value": computed_value,
    }
    result = parse_comparison(ctx)
    if peek_token(ctx)[0] != "end":
        raise ValueError(f"trailing text in {formula!r}")
    result = calc_scalar(ctx, result)
    return 0.0 if result is None else result  # a formula showing a blank cell shows 0


def new_table(sheet, header, rows, bold=True):
    """A new workbook whose only sheet, `sheet`, holds `header` (bold unless told) and then `rows`."""
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for row in [header, *rows]:
        ws.append(row)
    for cell in ws[1] if bold else ():
        cell.font = Font(bold=True)
    return wb


def save_book(wb, path):
    """Save `wb` as HOME/path, creating its folder."""
    target = HOME / path
    target.parent.mkdir(parents=True, exist_ok=True)
    wb.save(target)


def open_sheet(path, sheet):
    """(workbook, sheet) of HOME/path, for a solver to edit and then `wb.save(HOME / path)`."""
    import openpyxl

    wb = openpyxl.load_workbook(HOME / path)
    return wb, wb[sheet]


def total_shown(book, sheet, row, col, rows, expected):
    """sheet!(row, col) is a formula showing `expected` or the sum of what `rows` of its column show:
    a total judged on its own, so one wrong line above it does not cost the total too."""
    if not is_formula(find_sheet(book["f"], sheet).cell(row=row, column=col).value):
        return False
    value = computed_value(book, sheet, row, col)
    shown = [computed_value(book, sheet, r, col) for r in rows]
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in shown)
    return close_to(value, expected) or (numeric and close_to(value, sum(shown)))


def formula_shows(book, sheet, row, col, expected):
    """sheet!(row, col) holds a formula whose value (cached, or evaluated) is `expected`."""
    cell = find_sheet(book["f"], sheet).cell(row=row, column=col)
    return is_formula(cell.value) and close_to(computed_value(book, sheet, row, col), expected)


def rows_kept(ws, rows, first=2, cols=None):
    """Whether `ws` still holds `rows` (lists of values from column A) from row `first` down, in the
    columns `cols` (1-based; every value of a row by default): the data a task does not touch is
    intact. Numbers must stay numbers (within 1e-9), text matches without outer spaces, a date cell
    matches its ISO text ("2024-03-05") and an empty cell None."""
    import datetime

    def clean(value):
        return value.strip() if isinstance(value, str) else value

    for r, row in enumerate(rows, start=first):
        for c in cols or range(1, len(row) + 1):
            got, want = ws.cell(row=r, column=c).value, row[c - 1]
            if isinstance(want, int | float) and not isinstance(want, bool):
                if isinstance(got, bool) or not isinstance(got, int | float) or abs(got - want) > 1e-9:
                    return False
                continue
            if isinstance(got, datetime.date) and isinstance(want, str):
                got = got.isoformat()[:10]
            if clean(got) != clean(want):
                return False
    return True
