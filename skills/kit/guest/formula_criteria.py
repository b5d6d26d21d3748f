"""The formula evaluator's criteria (see sheets.evaluate_formula): SUMIF-style criteria as Calc
decides them (wildcards, comparison operators, numbers against numbers, text without case) and the
selection of a range's cells by criteria pairs. Guest code; `ctx` as in formula_values.py."""

from __future__ import annotations

from skills.kit.guest.formula_values import (
    calc_number,
    calc_order,
    calc_scalar,
    calc_text,
    is_calc_number,
    is_calc_range,
    is_numeric_text,
    range_values,
)


def calc_wildcard(pattern):
    """Calc's wildcards as a regex: * any text, ? one character, ~ takes the next one literally."""
    import re

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


def criterion_target(ctx, operand):
    """The number a criterion's operand compares as (a blank is 0, "TRUE" 1), or None for text."""
    if operand is None:  # a blank criterion cell means 0
        return 0.0
    if not isinstance(operand, str):
        return calc_number(ctx, operand)
    if is_numeric_text(operand.strip()):
        return float(operand.strip())
    if operand.strip().upper() in ("TRUE", "FALSE"):
        return 1.0 if operand.strip().upper() == "TRUE" else 0.0
    return None


def criterion_test(ctx, criterion):
    """A test of whether a cell value meets a SUMIF-style criterion, as Calc decides it."""
    import re

    criterion = calc_scalar(ctx, criterion)
    textual = isinstance(criterion, str)
    op, operand = "=", criterion
    if textual:
        m = re.match(r"(<>|<=|>=|<|>|=)?(.*)", criterion, re.S)
        op, operand = m.group(1) or "=", m.group(2)
    target = criterion_target(ctx, operand)
    holds = {
        "=": lambda o: o == 0,
        "<>": lambda o: o != 0,
        "<": lambda o: o < 0,
        ">": lambda o: o > 0,
        "<=": lambda o: o <= 0,
        ">=": lambda o: o >= 0,
    }[op]
    pattern = calc_wildcard(operand) if target is None and op in ("=", "<>") else None

    def test(value):
        if isinstance(value, ValueError):
            return False  # an error cell meets no criterion
        if target is not None:  # numbers compare as numbers; text only equals the criterion's text
            if is_calc_number(value):
                return holds(calc_order(ctx, calc_number(ctx, value), target))
            hit = textual and isinstance(value, str) and value.lower() == operand.lower()
            return hit if op == "=" else (op == "<>" and not hit)
        if pattern is not None:  # text (and numbers shown as text) against wildcards, whole cell
            hit = (
                operand == "" if value in (None, "") else pattern.fullmatch(calc_text(ctx, value)) is not None
            )
            return hit if op == "=" else not hit
        return isinstance(value, str) and holds(calc_order(ctx, value, operand))

    return test


def criteria_pairs(ctx, args):
    """(cell values, test) per criteria range and criterion of a *IFS call."""
    if len(args) % 2:
        raise ValueError(f"criteria ranges and criteria must come in pairs in {ctx['formula']!r}")
    return [(range_values(ctx, args[i]), criterion_test(ctx, args[i + 1])) for i in range(0, len(args), 2)]


def criteria_selected(ctx, pairs, size):
    """Per cell of ranges of `size` cells, whether it meets every criterion of `pairs`."""
    keep = [True] * size
    for values, test in pairs:
        if len(values) != size:
            raise ValueError(f"#VALUE!: ranges of different sizes in {ctx['formula']!r}")
        keep = [k and test(v) for k, v in zip(keep, values, strict=True)]
    return keep


def picked_numbers(ctx, values, keep):
    """The numbers among the kept `values`; a kept error cell raises its error."""
    out = []
    for value, k in zip(values, keep, strict=True):
        if k and isinstance(value, ValueError):
            raise value
        if k and is_calc_number(value):
            out.append(calc_number(ctx, value))
    return out


def reanchored(area, shape):
    """`area` re-anchored at its top-left corner with the size of `shape` (SUMIF's sum range)."""
    if not (is_calc_range(area) and is_calc_range(shape)):
        return area
    _, target, r0, c0, _r1, _c1 = area
    return ("range", target, r0, c0, r0 + shape[4] - shape[2], c0 + shape[5] - shape[3])
