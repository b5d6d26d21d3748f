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
    return isinstance(getattr(value, "text", value), str) and str(getattr(value, "text", value)).startswith(
        "="
    )


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
    a range used as one value), with a message not starting with '#'."""
    import datetime
    import decimal
    import math
    import re

    from openpyxl.utils import range_boundaries
    from openpyxl.utils.datetime import to_excel

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
    numeric_text = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
    dates = datetime.date | datetime.time | datetime.timedelta  # datetime.datetime is a date
    text = formula[1:] if formula.startswith("=") else formula
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = token_re.match(text, pos)
        if m is None:
            raise ValueError(f"cannot read formula {formula!r} at {text[pos : pos + 12]!r}")
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
        try:
            find_sheet(book["f"], target)
        except KeyError:
            raise ValueError(f"#REF!: no sheet {target!r} for {formula!r}") from None
        min_col, min_row, max_col, max_row = range_boundaries(ref.replace("$", "").upper())
        if min_row is None:  # whole columns, e.g. Data!B:B: as tall as the tallest sheet, so all match
            min_row, max_row = 1, max(ws.max_row for ws in book["f"].worksheets)
        min_row, max_row = sorted((min_row, max_row))  # C3:C1 is C1:C3
        min_col, max_col = sorted((min_col, max_col))
        return ("range", target, min_row, min_col, max_row, max_col)

    def is_range(value):
        return isinstance(value, tuple) and value[0] == "range"

    def cells(value):
        """The values of a range, row by row; a cell holding a Calc error gives that ValueError."""
        if not is_range(value):
            return [value]
        _, target, r0, c0, r1, c1 = value
        codes = ("#DIV/0!", "#VALUE!", "#N/A", "#NAME?", "#NUM!", "#REF!", "#NULL!")
        out = []
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                try:
                    found = computed_value(book, target, r, c, _depth + 1)
                except ValueError as exc:
                    if not str(exc).startswith("#"):
                        raise  # something the evaluator does not know: refuse, do not guess
                    found = exc
                if found in codes and is_formula(find_sheet(book["f"], target).cell(row=r, column=c).value):
                    found = ValueError(found)  # an error LibreOffice cached, e.g. '#DIV/0!'
                out.append(found)
        return out

    def scalar(value):
        if is_range(value):
            found = cells(value)
            if len(found) != 1:
                raise ValueError(f"a range is used as a single value in {formula!r}")
            value = found[0]
        if isinstance(value, ValueError):
            raise value
        return value

    def is_number(value):
        """A number as Calc sees it: booleans and dates are numbers too."""
        return isinstance(value, int | float | dates)

    def number(value):
        value = scalar(value)
        if value is None:
            return 0.0
        if isinstance(value, dates):
            return float(to_excel(value))
        if isinstance(value, int | float):
            return float(value)
        if numeric_text.fullmatch(str(value).strip()):
            return float(str(value).strip())
        raise ValueError(f"#VALUE!: {value!r} is not a number")

    def numbers(args, name):
        """SUM-style arguments: a range gives its numbers (text and blanks skipped, errors raised),
        a text argument is #VALUE! in Calc even when it reads as a number."""
        out = []
        for arg in args:
            if is_range(arg):
                for value in cells(arg):
                    if isinstance(value, ValueError):
                        raise value
                    if is_number(value):
                        out.append(number(value))
            elif isinstance(arg, str):
                raise ValueError(f"#VALUE!: text {arg!r} as an argument of {name}")
            else:
                out.append(number(arg))
        return out

    def equal(a, b):
        """Calc's approximate equality of numbers (0.1+0.2 equals 0.3)."""
        return a == b or (a != 0 and b != 0 and abs(a - b) < min(abs(a), abs(b)) * 2.0**-48)

    def order(a, b):
        """-1, 0 or 1: Calc's comparison, numbers below text, text without case, a blank 0 or ""."""
        a, b = scalar(a), scalar(b)
        if a is None:
            a = "" if isinstance(b, str) else 0.0
        if b is None:
            b = "" if isinstance(a, str) else 0.0
        if isinstance(a, str) != isinstance(b, str):
            return 1 if isinstance(a, str) else -1
        if isinstance(a, str):
            a, b = a.lower(), b.lower()
            return (a > b) - (a < b)
        a, b = number(a), number(b)
        return 0 if equal(a, b) else (1 if a > b else -1)

    def wildcard(pattern):
        """Calc's wildcards as a regex: * any text, ? one character, ~ takes the next one literally."""
        out, i = [], 0
        while i < len(pattern):
            char = pattern[i]
            if char == "~" and i + 1 < len(pattern):
                out.append(re.escape(pattern[i + 1]))
                i += 2
                continue
            out.append(".*" if char == "*" else "." if char == "?" else re.escape(char))
            i += 1
        return re.compile("".join(out), re.S | re.I)

    def meets(criterion):
        """A test of whether a cell value meets a SUMIF-style criterion, as Calc decides it."""
        criterion = scalar(criterion)
        textual = isinstance(criterion, str)
        op, operand = "=", criterion
        if textual:
            m = re.match(r"(<>|<=|>=|<|>|=)?(.*)", criterion, re.S)
            op, operand = m.group(1) or "=", m.group(2)
        if operand is None:  # a blank criterion cell means 0
            target = 0.0
        elif not isinstance(operand, str):
            target = number(operand)
        elif numeric_text.fullmatch(operand.strip()):
            target = float(operand.strip())
        elif operand.strip().upper() in ("TRUE", "FALSE"):
            target = 1.0 if operand.strip().upper() == "TRUE" else 0.0
        else:
            target = None
        holds = {
            "=": lambda o: o == 0,
            "<>": lambda o: o != 0,
            "<": lambda o: o < 0,
            ">": lambda o: o > 0,
            "<=": lambda o: o <= 0,
            ">=": lambda o: o >= 0,
        }[op]
        pattern = wildcard(operand) if target is None and op in ("=", "<>") else None

        def test(value):
            if isinstance(value, ValueError):
                return False  # an error cell meets no criterion
            if target is not None:  # numbers compare as numbers; text only equals the criterion's text
                if is_number(value):
                    return holds(order(number(value), target))
                hit = textual and isinstance(value, str) and value.lower() == operand.lower()
                return hit if op == "=" else (op == "<>" and not hit)
            if pattern is not None:  # text (and numbers shown as text) against wildcards, whole cell
                hit = operand == "" if value in (None, "") else pattern.fullmatch(_text(value)) is not None
                return hit if op == "=" else not hit
            return isinstance(value, str) and holds(order(value, operand))

        return test

    def pairs(args):
        if len(args) % 2:
            raise ValueError(f"criteria ranges and criteria must come in pairs in {formula!r}")
        return [(cells(args[i]), meets(args[i + 1])) for i in range(0, len(args), 2)]

    def selected(criteria_pairs, size):
        keep = [True] * size
        for values, test in criteria_pairs:
            if len(values) != size:
                raise ValueError(f"#VALUE!: ranges of different sizes in {formula!r}")
            keep = [k and test(v) for k, v in zip(keep, values, strict=True)]
        return keep

    def picked_numbers(values, keep):
        out = []
        for value, k in zip(values, keep, strict=True):
            if k and isinstance(value, ValueError):
                raise value
            if k and is_number(value):
                out.append(number(value))
        return out

    def like(area, shape):
        """`area` re-anchored at its top-left corner with the size of `shape` (SUMIF's sum range)."""
        if not (is_range(area) and is_range(shape)):
            return area
        _, target, r0, c0, _r1, _c1 = area
        return ("range", target, r0, c0, r0 + shape[4] - shape[2], c0 + shape[5] - shape[3])

    def call(name, args):
        name = name.upper()
        for prefix in ("_XLFN.", "_XLWS.", "COM.MICROSOFT."):
            name = name.removeprefix(prefix)
        if name in ("TRUE", "FALSE") and not args:  # LibreOffice writes TRUE as TRUE()
            return name == "TRUE"
        if name == "IF":
            condition = scalar(args[0])
            if isinstance(condition, str):
                if condition.strip().upper() not in ("TRUE", "FALSE"):
                    raise ValueError(f"#VALUE!: IF on the text {condition!r}")
                condition = condition.strip().upper() == "TRUE"
            chosen = (
                (args[1] if len(args) > 1 else True)
                if number(condition) != 0
                else (args[2] if len(args) > 2 else False)
            )
            return scalar(chosen)
        for arg in args:
            if isinstance(arg, ValueError):
                raise arg
        if name == "SUM":
            return sum(numbers(args, name))
        if name == "PRODUCT":
            values = numbers(args, name)
            return _prod(values) if values else 0.0
        if name == "SUMPRODUCT":
            columns = [cells(a) for a in args]
            if len({len(c) for c in columns}) > 1:
                raise ValueError(f"#VALUE!: SUMPRODUCT of ranges of different sizes in {formula!r}")
            total = 0.0
            for row in zip(*columns, strict=True):
                for value in row:
                    if isinstance(value, ValueError):
                        raise value
                total += _prod([number(v) if is_number(v) else 0.0 for v in row])
            return total
        if name in ("AVERAGE", "MIN", "MAX"):
            values = numbers(args, name)
            if not values:
                return 0.0 if name != "AVERAGE" else _fail("#DIV/0!")
            return {"AVERAGE": sum(values) / len(values), "MIN": min(values), "MAX": max(values)}[name]
        if name == "COUNT":
            count = 0
            for arg in args:  # numbers (booleans, dates); a direct text argument too if it reads as one
                for value in cells(arg):
                    text_number = isinstance(value, str) and numeric_text.fullmatch(value.strip())
                    count += bool(is_number(value) or (text_number and not is_range(arg)))
            return float(count)
        if name == "COUNTA":
            filled = [v not in (None, "") if is_range(a) else v is not None for a in args for v in cells(a)]
            return float(sum(filled))  # error cells count, and so does a direct "" argument
        if name == "ROUND":
            digits = max(-300, min(300, int(number(args[1])) if len(args) > 1 else 0))
            shown = decimal.Decimal(format(number(args[0]), ".15g"))  # the decimal Calc shows
            step, context = decimal.Decimal(1).scaleb(-digits), decimal.Context(prec=700)
            return float(shown.quantize(step, rounding=decimal.ROUND_HALF_UP, context=context))  # 2.5 -> 3
        if name == "ABS":
            return abs(number(args[0]))
        if name in ("SUMIF", "AVERAGEIF"):
            values = cells(args[0])
            sums = cells(like(args[2], args[0])) if len(args) > 2 else values
            if len(sums) != len(values):
                raise ValueError(f"#VALUE!: ranges of different sizes in {formula!r}")
            test = meets(args[1])
            picked = picked_numbers(sums, [test(v) for v in values])
            if name == "SUMIF":
                return sum(picked)
            return sum(picked) / len(picked) if picked else _fail("#DIV/0!")
        if name == "SUMIFS":
            sums = cells(args[0])
            return sum(picked_numbers(sums, selected(pairs(args[1:]), len(sums))))
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
            o = order(left, concat())
            left = {"=": o == 0, "<>": o != 0, "<": o < 0, ">": o > 0, "<=": o <= 0, ">=": o >= 0}[op]
        return left

    def concat():
        left = additive()
        while peek()[1] == "&":
            take()
            right = scalar(additive())
            left = _text(scalar(left)) + _text(right)
        return left

    def _text(value):
        """A value as Calc turns it into text: 15 significant digits, E+015 style beyond."""
        if value is None:
            return ""
        if not is_number(value):
            return str(value)
        if number(value) == 0:
            return "0"
        mantissa, exponent = f"{number(value):.14E}".split("E")
        if not -15 < int(exponent) < 15:
            return f"{mantissa.rstrip('0').rstrip('.')}E{exponent[0]}{abs(int(exponent)):03d}"
        shown = format(decimal.Decimal(f"{mantissa}E{exponent}"), "f")
        return shown.rstrip("0").rstrip(".") if "." in shown else shown

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

    def _power(base, exponent):
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

    def power():
        left = unary()
        while peek()[1] == "^":
            take()
            left = _power(number(left), number(unary()))
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

    def end_of_argument(start):
        """The index of the , ; or ) that closes the function argument starting at token `start`."""
        depth, index = 0, start
        while tokens[index][0] != "end":
            kind, value = tokens[index]
            if kind == "func" or value == "(":
                depth += 1
            elif value == ")":
                if depth == 0:
                    break
                depth -= 1
            elif value in (",", ";") and depth == 0:
                break
            index += 1
        return index

    def argument(lazy):
        """One function argument. For IF (`lazy`) a Calc error is kept as a value, raised only if
        IF takes that branch: IF(C1=0,0,B1/C1) is 0 when C1 is 0."""
        start = at[0]
        try:
            return comparison()
        except ValueError as exc:
            if not lazy or not str(exc).startswith("#"):
                raise
            at[0] = end_of_argument(start)
            return exc

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
            known = (
                "SUM",
                "PRODUCT",
                "SUMPRODUCT",
                "AVERAGE",
                "MIN",
                "MAX",
                "COUNT",
                "COUNTA",
                "ROUND",
                "ABS",
                "IF",
                "SUMIF",
                "SUMIFS",
                "COUNTIF",
                "COUNTIFS",
                "AVERAGEIF",
                "TRUE",
                "FALSE",
            )
            name = value.upper()
            for prefix in ("_XLFN.", "_XLWS.", "COM.MICROSOFT."):
                name = name.removeprefix(prefix)
            if name not in known:  # before its arguments: IFERROR(1/0,0) is refused, not #DIV/0!
                raise ValueError(f"function {name} is not supported by the checker")
            lazy = name == "IF"
            args = []
            if peek()[1] != ")":
                args.append(argument(lazy))
                while peek()[1] in (",", ";"):
                    take()
                    args.append(argument(lazy))
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
    result = scalar(result)
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
