"""Guest helpers shared by the Calc families: pass them in a family's `helpers` tuple.

Each function is shipped as source into generated scripts, so each one imports what it needs inside
its body and uses only the standard library and openpyxl. The loader skips this module (leading
underscore): it holds no Family.

Why an evaluator: openpyxl never computes formulas. A file saved by LibreOffice carries cached
values (read with data_only=True); a file written by openpyxl (a golden patch) carries none. So a
reward asks `computed_value`, which prefers LibreOffice's cached value and otherwise evaluates the
formula itself: any equivalent formula (SUMIF vs SUMIFS, B2*C2 vs PRODUCT(B2;C2)) earns credit.
"""

from __future__ import annotations


def open_book(path):
    """Both views of a workbook: {"f": formulas as written, "v": values cached by the last save}."""
    import openpyxl

    return {"f": openpyxl.load_workbook(path), "v": openpyxl.load_workbook(path, data_only=True)}


def find_sheet(wb, name):
    """The sheet titled `name`, ignoring case and outer spaces (Calc refuses names differing only in case)."""
    wanted = str(name).strip().lower()
    for ws in wb.worksheets:
        if ws.title.strip().lower() == wanted:
            return ws
    raise KeyError(f"no sheet named {name!r} (sheets: {wb.sheetnames})")


def is_formula(value):
    return isinstance(getattr(value, "text", value), str) and str(getattr(value, "text", value)).startswith("=")


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
    formula uses something the evaluator does not know."""
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
    ROUND ABS IF SUMIF SUMIFS COUNTIF COUNTIFS AVERAGEIF. Semicolon separators are accepted too."""
    import fnmatch
    import re

    from openpyxl.utils import range_boundaries

    if _depth > 40:
        raise ValueError("formula nesting too deep (circular reference?)")
    token_re = re.compile(
        r"""(?P<str>"(?:[^"]|"")*")
        |(?P<func>[A-Za-z_][\w.]*)\s*\(
        |(?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)
        |(?P<cols>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3})
        |(?P<num>\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+)
        |(?P<bool>TRUE|FALSE)\b
        |(?P<op><>|<=|>=|[-+*/^&=<>%(),;])""",
        re.X | re.I,
    )
    text = formula[1:] if formula.startswith("=") else formula
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = token_re.match(text, pos)
        if m is None:
            raise ValueError(f"cannot read formula {formula!r} at {text[pos:pos + 12]!r}")
        tokens.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    tokens.append(("end", ""))
    at = [0]

    def peek():
        return tokens[at[0]]

    def take():
        at[0] += 1
        return tokens[at[0] - 1]

    def expect(value):
        kind, got = take()
        if got != value:
            raise ValueError(f"expected {value!r} in {formula!r}, got {got!r}")

    def make_range(ref):
        target = sheet
        if "!" in ref:
            target, ref = ref.rsplit("!", 1)
            target = target[1:-1].replace("''", "'") if target.startswith("'") else target
        min_col, min_row, max_col, max_row = range_boundaries(ref.replace("$", "").upper())
        if min_row is None:  # whole columns, e.g. Data!B:B
            min_row, max_row = 1, find_sheet(book["f"], target).max_row
        return ("range", target, min_row, min_col, max_row, max_col)

    def cells(value):
        if isinstance(value, tuple) and value[0] == "range":
            _, target, r0, c0, r1, c1 = value
            return [computed_value(book, target, r, c, _depth + 1) for r in range(r0, r1 + 1)
                    for c in range(c0, c1 + 1)]  # fmt: skip
        return [value]

    def scalar(value):
        if isinstance(value, tuple) and value[0] == "range":
            found = cells(value)
            if len(found) != 1:
                raise ValueError(f"a range is used as a single value in {formula!r}")
            return found[0]
        return value

    def number(value):
        value = scalar(value)
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return 1.0 if value else 0.0
        if isinstance(value, int | float):
            return float(value)
        try:
            return float(str(value).strip())
        except ValueError:
            raise ValueError(f"#VALUE!: {value!r} is not a number") from None

    def numbers(args):
        out = []
        for arg in args:
            if isinstance(arg, tuple):
                out += [float(v) for v in cells(arg) if isinstance(v, int | float) and not isinstance(v, bool)]
            else:
                out.append(number(arg))
        return out

    def matches(value, criterion):
        criterion = scalar(criterion)
        op, operand = "=", criterion
        if isinstance(criterion, str):
            m = re.match(r"(<>|<=|>=|<|>|=)?(.*)", criterion, re.S)
            op, operand = m.group(1) or "=", m.group(2)
        try:
            target = float(operand) if not isinstance(operand, bool) else None
        except (TypeError, ValueError):
            target = None
        if target is not None and isinstance(value, int | float) and not isinstance(value, bool):
            return {"=": value == target, "<>": value != target, "<": value < target, ">": value > target,
                    "<=": value <= target, ">=": value >= target}[op]  # fmt: skip
        if op in ("=", "<>"):
            pattern = str(operand).lower().replace("[", "[[]")
            text_value = "" if value is None else str(value).lower()
            hit = fnmatch.fnmatchcase(text_value, pattern) if target is None else False
            return hit if op == "=" else not hit
        return False

    def pairs(args):
        if len(args) % 2:
            raise ValueError(f"criteria ranges and criteria must come in pairs in {formula!r}")
        return [(cells(args[i]), args[i + 1]) for i in range(0, len(args), 2)]

    def selected(criteria_pairs, size):
        keep = [True] * size
        for values, criterion in criteria_pairs:
            if len(values) != size:
                raise ValueError(f"ranges of different sizes in {formula!r}")
            keep = [k and matches(v, criterion) for k, v in zip(keep, values, strict=True)]
        return keep

    def call(name, args):
        name = name.upper()
        for prefix in ("_XLFN.", "_XLWS.", "COM.MICROSOFT."):
            name = name.removeprefix(prefix)
        if name == "SUM":
            return sum(numbers(args))
        if name == "PRODUCT":
            result = 1.0
            for value in numbers(args):
                result *= value
            return result
        if name == "SUMPRODUCT":
            columns = [cells(a) for a in args]
            return sum(
                _prod([number(v) if isinstance(v, int | float) else 0.0 for v in row])
                for row in zip(*columns, strict=True)
            )
        if name in ("AVERAGE", "MIN", "MAX", "COUNT"):
            values = numbers(args)
            if name == "COUNT":
                return float(len(values))
            if not values:
                return 0.0 if name != "AVERAGE" else _fail("#DIV/0!")
            return {"AVERAGE": sum(values) / len(values), "MIN": min(values), "MAX": max(values)}[name]
        if name == "COUNTA":
            return float(sum(v not in (None, "") for a in args for v in cells(a)))
        if name == "ROUND":
            return round(number(args[0]), int(number(args[1])) if len(args) > 1 else 0)
        if name == "ABS":
            return abs(number(args[0]))
        if name == "IF":
            condition = scalar(args[0])
            truthy = bool(condition.strip()) if isinstance(condition, str) else number(condition) != 0
            return scalar(args[1]) if truthy else (scalar(args[2]) if len(args) > 2 else False)
        if name in ("SUMIF", "AVERAGEIF"):
            values = cells(args[0])
            sums = cells(args[2]) if len(args) > 2 else values
            picked = [s for v, s in zip(values, sums, strict=True) if matches(v, args[1])]
            picked = [float(s) for s in picked if isinstance(s, int | float) and not isinstance(s, bool)]
            if name == "SUMIF":
                return sum(picked)
            return sum(picked) / len(picked) if picked else _fail("#DIV/0!")
        if name == "SUMIFS":
            sums = cells(args[0])
            keep = selected(pairs(args[1:]), len(sums))
            return sum(float(s) for s, k in zip(sums, keep, strict=True)
                       if k and isinstance(s, int | float) and not isinstance(s, bool))  # fmt: skip
        if name in ("COUNTIF", "COUNTIFS"):
            criteria_pairs = pairs(args)
            return float(sum(selected(criteria_pairs, len(criteria_pairs[0][0]))))
        raise ValueError(f"function {name} is not supported by the checker")

    def _prod(values):
        result = 1.0
        for value in values:
            result *= value
        return result

    def _fail(message):
        raise ValueError(message)

    def comparison():
        left = concat()
        while peek()[1] in ("=", "<>", "<", ">", "<=", ">="):
            op = take()[1]
            a, b = scalar(left), scalar(concat())
            if isinstance(a, str) or isinstance(b, str):
                a, b = str(a).lower(), str(b).lower()
            else:
                a, b = number(a), number(b)
            left = {"=": a == b, "<>": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        return left

    def concat():
        left = additive()
        while peek()[1] == "&":
            take()
            right = scalar(additive())
            left = _text(scalar(left)) + _text(right)
        return left

    def _text(value):
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return "" if value is None else str(value)

    def additive():
        left = term()
        while peek()[1] in ("+", "-"):
            op, right = take()[1], term()
            left = number(left) + number(right) if op == "+" else number(left) - number(right)
        return left

    def term():
        left = power()
        while peek()[1] in ("*", "/"):
            op, right = take()[1], power()
            if op == "*":
                left = number(left) * number(right)
            elif number(right) == 0:
                raise ValueError("#DIV/0!")
            else:
                left = number(left) / number(right)
        return left

    def power():
        left = unary()
        while peek()[1] == "^":
            take()
            left = number(left) ** number(unary())
        return left

    def unary():
        if peek()[1] in ("-", "+"):
            sign = -1.0 if take()[1] == "-" else 1.0
            return sign * number(unary())
        value = primary()
        while peek()[1] == "%":
            take()
            value = number(value) / 100
        return value

    def primary():
        kind, value = take()
        if kind == "num":
            return float(value)
        if kind == "str":
            return value[1:-1].replace('""', '"')
        if kind == "bool":
            return value.upper() == "TRUE"
        if kind in ("ref", "cols"):
            return make_range(value)
        if kind == "func":
            args = []
            if peek()[1] != ")":
                args.append(comparison())
                while peek()[1] in (",", ";"):
                    take()
                    args.append(comparison())
            expect(")")
            return call(value, args)
        if value == "(":
            inner = comparison()
            expect(")")
            return inner
        raise ValueError(f"unexpected {value!r} in {formula!r}")

    result = comparison()
    if peek()[0] != "end":
        raise ValueError(f"trailing text in {formula!r}")
    return scalar(result)
