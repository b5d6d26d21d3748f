"""The formula evaluator's functions (see sheets.evaluate_formula): one evaluator per Calc function,
found through a dispatch table. Guest code; `ctx` as in formula_values.py. Each evaluator takes
(ctx, name, args): `name` upper case without its _xlfn. prefix, `args` the evaluated arguments
(ranges stay ("range", ...) tuples)."""

from __future__ import annotations

from skills.kit.guest.formula_criteria import (
    criteria_pairs,
    criteria_selected,
    criterion_test,
    picked_numbers,
    reanchored,
)
from skills.kit.guest.formula_values import (
    calc_error,
    calc_number,
    calc_numbers,
    calc_product,
    calc_scalar,
    is_calc_number,
    is_calc_range,
    is_numeric_text,
    range_values,
)


def fn_if(ctx, name, args):
    """IF: its arguments are evaluated lazily (a Calc error stays a value), only the branch it takes
    is raised or returned."""
    condition = calc_scalar(ctx, args[0])
    if isinstance(condition, str):
        if condition.strip().upper() not in ("TRUE", "FALSE"):
            raise ValueError(f"#VALUE!: IF on the text {condition!r}")
        condition = condition.strip().upper() == "TRUE"
    chosen = (
        (args[1] if len(args) > 1 else True)
        if calc_number(ctx, condition) != 0
        else (args[2] if len(args) > 2 else False)
    )
    return calc_scalar(ctx, chosen)


def fn_sum(ctx, name, args):
    return sum(calc_numbers(ctx, args, name))


def fn_product(ctx, name, args):
    values = calc_numbers(ctx, args, name)
    return calc_product(values) if values else 0.0


def fn_sumproduct(ctx, name, args):
    columns = [range_values(ctx, a) for a in args]
    if len({len(c) for c in columns}) > 1:
        raise ValueError(f"#VALUE!: SUMPRODUCT of ranges of different sizes in {ctx['formula']!r}")
    total = 0.0
    for row in zip(*columns, strict=True):
        for value in row:
            if isinstance(value, ValueError):
                raise value
        total += calc_product([calc_number(ctx, v) if is_calc_number(v) else 0.0 for v in row])
    return total


def fn_average(ctx, name, args):
    values = calc_numbers(ctx, args, name)
    return sum(values) / len(values) if values else calc_error("#DIV/0!")


def fn_min(ctx, name, args):
    values = calc_numbers(ctx, args, name)
    return min(values) if values else 0.0


def fn_max(ctx, name, args):
    values = calc_numbers(ctx, args, name)
    return max(values) if values else 0.0


def fn_count(ctx, name, args):
    """Numbers (booleans, dates) in the arguments; a direct text argument too if it reads as one."""
    count = 0
    for arg in args:
        for value in range_values(ctx, arg):
            text_number = isinstance(value, str) and is_numeric_text(value.strip())
            count += bool(is_calc_number(value) or (text_number and not is_calc_range(arg)))
    return float(count)


def fn_counta(ctx, name, args):
    filled = [
        v not in (None, "") if is_calc_range(a) else v is not None for a in args for v in range_values(ctx, a)
    ]
    return float(sum(filled))  # error cells count, and so does a direct "" argument


def fn_round(ctx, name, args):
    import decimal

    digits = max(-300, min(300, int(calc_number(ctx, args[1])) if len(args) > 1 else 0))
    shown = decimal.Decimal(format(calc_number(ctx, args[0]), ".15g"))  # the decimal Calc shows
    step, context = decimal.Decimal(1).scaleb(-digits), decimal.Context(prec=700)
    return float(shown.quantize(step, rounding=decimal.ROUND_HALF_UP, context=context))  # 2.5 -> 3


def fn_abs(ctx, name, args):
    return abs(calc_number(ctx, args[0]))


def fn_sumif(ctx, name, args):
    """SUMIF and AVERAGEIF: the criterion on the first range, the numbers from the sum range (the
    first range when none is given), re-anchored to the first range's size."""
    values = range_values(ctx, args[0])
    sums = range_values(ctx, reanchored(args[2], args[0])) if len(args) > 2 else values
    if len(sums) != len(values):
        raise ValueError(f"#VALUE!: ranges of different sizes in {ctx['formula']!r}")
    test = criterion_test(ctx, args[1])
    picked = picked_numbers(ctx, sums, [test(v) for v in values])
    if name == "SUMIF":
        return sum(picked)
    return sum(picked) / len(picked) if picked else calc_error("#DIV/0!")


def fn_sumifs(ctx, name, args):
    sums = range_values(ctx, args[0])
    return sum(picked_numbers(ctx, sums, criteria_selected(ctx, criteria_pairs(ctx, args[1:]), len(sums))))


def fn_countifs(ctx, name, args):
    """COUNTIF and COUNTIFS: the cells meeting every criterion."""
    pairs = criteria_pairs(ctx, args)
    return float(sum(criteria_selected(ctx, pairs, len(pairs[0][0]))))


def formula_functions():
    """The functions the evaluator knows past IF, TRUE and FALSE: name -> evaluator."""
    return {
        "SUM": fn_sum,
        "PRODUCT": fn_product,
        "SUMPRODUCT": fn_sumproduct,
        "AVERAGE": fn_average,
        "MIN": fn_min,
        "MAX": fn_max,
        "COUNT": fn_count,
        "COUNTA": fn_counta,
        "ROUND": fn_round,
        "ABS": fn_abs,
        "SUMIF": fn_sumif,
        "AVERAGEIF": fn_sumif,
        "SUMIFS": fn_sumifs,
        "COUNTIF": fn_countifs,
        "COUNTIFS": fn_countifs,
    }


def function_name(name):
    """A function's name as the dispatch table knows it: upper case, without the prefix Excel and
    LibreOffice write for newer functions (_xlfn.)."""
    name = name.upper()
    for prefix in ("_XLFN.", "_XLWS.", "COM.MICROSOFT."):
        name = name.removeprefix(prefix)
    return name


def is_known_function(name):
    return function_name(name) in ("IF", "TRUE", "FALSE") or function_name(name) in formula_functions()


def call_function(ctx, name, args):
    name = function_name(name)
    if name in ("TRUE", "FALSE") and not args:  # LibreOffice writes TRUE as TRUE()
        return name == "TRUE"
    if name == "IF":
        return fn_if(ctx, name, args)
    for arg in args:
        if isinstance(arg, ValueError):
            raise arg
    evaluator = formula_functions().get(name)
    if evaluator is None:
        raise ValueError(f"function {name} is not supported by the checker")
    return evaluator(ctx, name, args)
