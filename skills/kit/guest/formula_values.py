"""The formula evaluator's values (see sheets.evaluate_formula): a workbook's cells and ranges, and
Calc's coercions and comparisons of what they hold.

Guest code, shipped as source into scripts: each function imports what it needs in its body. The
evaluator's functions share one `ctx` (a dict: book, sheet, formula, depth, tokens, at and
computed_value). A range reads its cells through ctx["computed_value"], not by name: the reader
and the evaluator recurse into each other, and passing the reader down keeps the modules importing
one way (sheets -> formula_parser -> formula_functions -> formula_criteria -> formula_values).
"""

from __future__ import annotations


def find_sheet(wb, name):
    """The sheet titled `name`, ignoring case and outer spaces (Calc refuses names differing only in case)."""
    wanted = str(name).strip().lower()
    for ws in wb.worksheets:
        if ws.title.strip().lower() == wanted:
            return ws
    raise KeyError(f"no sheet named {name!r} (sheets: {wb.sheetnames})")


def is_formula(value):
    return isinstance(getattr(value, "text", value), str) and str(getattr(value, "text", value)).startswith(
        "="
    )


def is_numeric_text(text):
    """Whether `text` reads as a number the way Calc reads one (no thousands separators)."""
    import re

    return re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", text) is not None


def calc_range(ctx, ref):
    """A reference (A1, B2:C9, Data!B:B, 'My sheet'!A1) as ("range", sheet, r0, c0, r1, c1)."""
    from openpyxl.utils import range_boundaries

    book, target = ctx["book"], ctx["sheet"]
    if "!" in ref:
        target, ref = ref.rsplit("!", 1)
        target = target[1:-1].replace("''", "'") if target.startswith("'") else target
    try:
        find_sheet(book["f"], target)
    except KeyError:
        raise ValueError(f"#REF!: no sheet {target!r} for {ctx['formula']!r}") from None
    min_col, min_row, max_col, max_row = range_boundaries(ref.replace("$", "").upper())
    if min_row is None:  # whole columns, e.g. Data!B:B: as tall as the tallest sheet, so all match
        min_row, max_row = 1, max(ws.max_row for ws in book["f"].worksheets)
    min_row, max_row = sorted((min_row, max_row))  # C3:C1 is C1:C3
    min_col, max_col = sorted((min_col, max_col))
    return ("range", target, min_row, min_col, max_row, max_col)


def is_calc_range(value):
    return isinstance(value, tuple) and value[0] == "range"


def range_values(ctx, value):
    """The values of a range, row by row; a cell holding a Calc error gives that ValueError."""
    if not is_calc_range(value):
        return [value]
    _, target, r0, c0, r1, c1 = value
    book = ctx["book"]
    codes = ("#DIV/0!", "#VALUE!", "#N/A", "#NAME?", "#NUM!", "#REF!", "#NULL!")
    out = []
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            try:
                found = ctx["computed_value"](book, target, r, c, ctx["depth"] + 1)
            except ValueError as exc:
                if not str(exc).startswith("#"):
                    raise  # something the evaluator does not know: refuse, do not guess
                found = exc
            if found in codes and is_formula(find_sheet(book["f"], target).cell(row=r, column=c).value):
                found = ValueError(found)  # an error LibreOffice cached, e.g. '#DIV/0!'
            out.append(found)
    return out


def calc_scalar(ctx, value):
    """One value: a one-cell range gives its cell's; a bigger range or an error raises."""
    if is_calc_range(value):
        found = range_values(ctx, value)
        if len(found) != 1:
            raise ValueError(f"a range is used as a single value in {ctx['formula']!r}")
        value = found[0]
    if isinstance(value, ValueError):
        raise value
    return value


def is_calc_number(value):
    """A number as Calc sees it: booleans and dates are numbers too."""
    import datetime

    return isinstance(value, int | float | datetime.date | datetime.time | datetime.timedelta)


def calc_number(ctx, value):
    """`value` as Calc's number: a blank is 0, a date its serial, numeric text its number."""
    import datetime

    from openpyxl.utils.datetime import to_excel

    value = calc_scalar(ctx, value)
    if value is None:
        return 0.0
    if isinstance(value, datetime.date | datetime.time | datetime.timedelta):  # a datetime is a date
        return float(to_excel(value))
    if isinstance(value, int | float):
        return float(value)
    if is_numeric_text(str(value).strip()):
        return float(str(value).strip())
    raise ValueError(f"#VALUE!: {value!r} is not a number")


def calc_numbers(ctx, args, name):
    """SUM-style arguments: a range gives its numbers (text and blanks skipped, errors raised),
    a text argument is #VALUE! in Calc even when it reads as a number."""
    out = []
    for arg in args:
        if is_calc_range(arg):
            for value in range_values(ctx, arg):
                if isinstance(value, ValueError):
                    raise value
                if is_calc_number(value):
                    out.append(calc_number(ctx, value))
        elif isinstance(arg, str):
            raise ValueError(f"#VALUE!: text {arg!r} as an argument of {name}")
        else:
            out.append(calc_number(ctx, arg))
    return out


def calc_equal(a, b):
    """Calc's approximate equality of numbers (0.1+0.2 equals 0.3)."""
    return a == b or (a != 0 and b != 0 and abs(a - b) < min(abs(a), abs(b)) * 2.0**-48)


def calc_order(ctx, a, b):
    """-1, 0 or 1: Calc's comparison, numbers below text, text without case, a blank 0 or ""."""
    a, b = calc_scalar(ctx, a), calc_scalar(ctx, b)
    if a is None:
        a = "" if isinstance(b, str) else 0.0
    if b is None:
        b = "" if isinstance(a, str) else 0.0
    if isinstance(a, str) != isinstance(b, str):
        return 1 if isinstance(a, str) else -1
    if isinstance(a, str):
        a, b = a.lower(), b.lower()
        return (a > b) - (a < b)
    a, b = calc_number(ctx, a), calc_number(ctx, b)
    return 0 if calc_equal(a, b) else (1 if a > b else -1)


def calc_text(ctx, value):
    """A value as Calc turns it into text: 15 significant digits, E+015 style beyond."""
    import decimal

    if value is None:
        return ""
    if not is_calc_number(value):
        return str(value)
    if calc_number(ctx, value) == 0:
        return "0"
    mantissa, exponent = f"{calc_number(ctx, value):.14E}".split("E")
    if not -15 < int(exponent) < 15:
        return f"{mantissa.rstrip('0').rstrip('.')}E{exponent[0]}{abs(int(exponent)):03d}"
    shown = format(decimal.Decimal(f"{mantissa}E{exponent}"), "f")
    return shown.rstrip("0").rstrip(".") if "." in shown else shown


def calc_power(base, exponent):
    """base^exponent as Calc computes it: #NUM! for 0^-n, even roots of negatives and overflow."""
    import math

    if base == 0 and exponent < 0:
        raise ValueError(f"#NUM!: 0^{exponent}")
    if base < 0 and not exponent.is_integer():  # Calc takes odd roots of negative numbers
        root = round(1 / exponent)
        if root % 2 == 0 or not math.isclose(1 / root, exponent):
            raise ValueError(f"#NUM!: {base}^{exponent}")
        return -((-base) ** exponent)
    try:
        result = base**exponent
    except OverflowError:
        raise ValueError(f"#NUM!: {base}^{exponent} overflows") from None
    if math.isinf(result):
        raise ValueError(f"#NUM!: {base}^{exponent} overflows")
    return result


def calc_product(values):
    result = 1.0
    for value in values:
        result *= value
    return result


def calc_error(message):
    """Raise a Calc error (the message starts with its code, e.g. '#DIV/0!') from inside an expression."""
    raise ValueError(message)
