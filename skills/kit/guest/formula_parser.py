"""The formula evaluator's reader (see sheets.evaluate_formula): the tokens of a formula and a
recursive-descent parser that evaluates as it reads, by Calc's precedence (comparison < & < + - <
* / < ^ < unary - and % < a value). Guest code; `ctx` as in formula_values.py, its "tokens" and
"at" (the next token's index) belong to the parser."""

from __future__ import annotations

from skills.kit.guest.formula_functions import call_function, function_name, is_known_function
from skills.kit.guest.formula_values import (
    calc_number,
    calc_order,
    calc_power,
    calc_range,
    calc_scalar,
    calc_text,
)


def formula_tokens(formula):
    """(kind, text) per token of `formula` (its '=' dropped), ending in ("end", "")."""
    import re

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
            raise ValueError(f"cannot read formula {formula!r} at {text[pos : pos + 12]!r}")
        tokens.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    tokens.append(("end", ""))
    return tokens


def peek_token(ctx):
    return ctx["tokens"][ctx["at"]]


def take_token(ctx):
    ctx["at"] += 1
    return ctx["tokens"][ctx["at"] - 1]


def expect_token(ctx, value):
    kind, got = take_token(ctx)
    if got != value:
        raise ValueError(f"expected {value!r} in {ctx['formula']!r}, got {got!r}")


def parse_comparison(ctx):
    left = parse_concat(ctx)
    while peek_token(ctx)[1] in ("=", "<>", "<", ">", "<=", ">="):
        op = take_token(ctx)[1]
        o = calc_order(ctx, left, parse_concat(ctx))
        left = {"=": o == 0, "<>": o != 0, "<": o < 0, ">": o > 0, "<=": o <= 0, ">=": o >= 0}[op]
    return left


def parse_concat(ctx):
    left = parse_additive(ctx)
    while peek_token(ctx)[1] == "&":
        take_token(ctx)
        right = calc_scalar(ctx, parse_additive(ctx))
        left = calc_text(ctx, calc_scalar(ctx, left)) + calc_text(ctx, right)
    return left


def parse_additive(ctx):
    left = parse_term(ctx)
    while peek_token(ctx)[1] in ("+", "-"):
        op, right = take_token(ctx)[1], parse_term(ctx)
        a, b = calc_number(ctx, left), calc_number(ctx, right)
        left = a + b if op == "+" else a - b
    return left


def parse_term(ctx):
    left = parse_power(ctx)
    while peek_token(ctx)[1] in ("*", "/"):
        op, right = take_token(ctx)[1], parse_power(ctx)
        if op == "*":
            left = calc_number(ctx, left) * calc_number(ctx, right)
        elif calc_number(ctx, right) == 0:
            raise ValueError("#DIV/0!")
        else:
            left = calc_number(ctx, left) / calc_number(ctx, right)
    return left


def parse_power(ctx):
    left = parse_unary(ctx)
    while peek_token(ctx)[1] == "^":
        take_token(ctx)
        left = calc_power(calc_number(ctx, left), calc_number(ctx, parse_unary(ctx)))
    return left


def parse_unary(ctx):
    if peek_token(ctx)[1] in ("-", "+"):
        sign = -1.0 if take_token(ctx)[1] == "-" else 1.0
        return sign * calc_number(ctx, parse_unary(ctx))
    value = parse_primary(ctx)
    while peek_token(ctx)[1] == "%":
        take_token(ctx)
        value = calc_number(ctx, value) / 100
    return value


def end_of_argument(ctx, start):
    """The index of the , ; or ) that closes the function argument starting at token `start`."""
    tokens = ctx["tokens"]
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


def parse_argument(ctx, lazy):
    """One function argument. For IF (`lazy`) a Calc error is kept as a value, raised only if
    IF takes that branch: IF(C1=0,0,B1/C1) is 0 when C1 is 0."""
    start = ctx["at"]
    try:
        return parse_comparison(ctx)
    except ValueError as exc:
        if not lazy or not str(exc).startswith("#"):
            raise
        ctx["at"] = end_of_argument(ctx, start)
        return exc


def parse_call(ctx, value):
    """A function call whose name token `value` was just taken: its arguments, then its result."""
    name = function_name(value)
    if not is_known_function(name):  # before its arguments: IFERROR(1/0,0) is refused, not #DIV/0!
        raise ValueError(f"function {name} is not supported by the checker")
    lazy = name == "IF"
    args = []
    if peek_token(ctx)[1] != ")":
        args.append(parse_argument(ctx, lazy))
        while peek_token(ctx)[1] in (",", ";"):
            take_token(ctx)
            args.append(parse_argument(ctx, lazy))
    expect_token(ctx, ")")
    return call_function(ctx, value, args)


def parse_primary(ctx):
    kind, value = take_token(ctx)
    if kind == "num":
        return float(value)
    if kind == "str":
        return value[1:-1].replace('""', '"')
    if kind == "bool":
        return value.upper() == "TRUE"
    if kind in ("ref", "cols"):
        return calc_range(ctx, value)
    if kind == "func":
        return parse_call(ctx, value)
    if value == "(":
        inner = parse_comparison(ctx)
        expect_token(ctx, ")")
        return inner
    raise ValueError(f"unexpected {value!r} in {ctx['formula']!r}")
