"""Value sets, the lattice the scan's abstract evaluation works in, and the constant operations it
may perform on them.

A value set is a tuple of the possible constant values of an expression, or `TOP` when the scan
cannot tell (anything read from the state, a parameter, a library object). Operations are lifted to
sets (`lift`) and guarded so that folding cannot exhaust the scanner: long strings and sequences,
huge powers and shifts, huge format widths and expanding codecs are not folded (`Unknown`).
`Frame` and `Env` are what a run knows: the names' value sets.
"""

from __future__ import annotations

import ast
import base64
import codecs
import json
import math
import operator
import re
from typing import Any

TOP = None
MAX_SET = 8  # more possible values than this is "unknown"
MAX_LEN = 100_000  # longer strings / sequences are not folded
MAX_DEPTH = 4  # nested local calls interpreted per fold

Vals = tuple | None
Env = dict[str, Any]

BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
CMPOPS = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
REFLEXIVE = {
    ast.Eq: True,
    ast.LtE: True,
    ast.GtE: True,
    ast.Is: True,
    ast.NotEq: False,
    ast.Lt: False,
    ast.Gt: False,
    ast.IsNot: False,
}
BUILTINS = {
    "len": len,
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "round": round,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": sum,
    "sorted": sorted,
    "list": list,
    "tuple": tuple,
    "chr": chr,
    "ord": ord,
    "any": any,
    "all": all,
    "repr": repr,
    "divmod": divmod,
    "reversed": lambda x: tuple(reversed(x)),
    "set": frozenset,
    "frozenset": frozenset,
}
LIBRARY = {
    "json.loads": json.loads,
    "codecs.decode": lambda data, codec="utf-8", *rest: codecs.decode(data, _codec(codec), *rest),
    "codecs.encode": lambda data, codec="utf-8", *rest: codecs.encode(data, _codec(codec), *rest),
    "base64.b64decode": base64.b64decode,
    "base64.urlsafe_b64decode": base64.urlsafe_b64decode,
    "base64.b32decode": base64.b32decode,
    "base64.b16decode": base64.b16decode,
    "bytes.fromhex": bytes.fromhex,
    "math.floor": math.floor,
    "math.ceil": math.ceil,
    "math.sqrt": math.sqrt,
    "math.fabs": math.fabs,
    "math.isclose": math.isclose,
    "operator.add": operator.add,
    "operator.mul": operator.mul,
}
METHODS = {
    str: {
        "join",
        "upper",
        "lower",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "format",
        "encode",
        "startswith",
        "endswith",
        "split",
        "rsplit",
        "splitlines",
        "title",
        "capitalize",
        "casefold",
        "swapcase",
        "zfill",
        "center",
        "ljust",
        "rjust",
        "count",
        "find",
        "rfind",
        "index",
        "removeprefix",
        "removesuffix",
        "isdigit",
        "isalpha",
        "isnumeric",
        "partition",
        "rpartition",
    },
    bytes: {"decode", "hex", "startswith", "endswith", "strip", "split", "join", "upper", "lower", "replace"},
    dict: {"get", "keys", "values", "items", "copy"},
    list: {"index", "count", "copy"},
    tuple: {"index", "count"},
}


class Unknown(Exception):
    """Raised inside folding when a value cannot be worked out."""


def _key(value: Any) -> tuple:
    return (type(value).__name__, repr(value))


def dedupe(values: list) -> Vals:
    if len(values) <= 1:
        return tuple(values)
    seen, out = set(), []
    for v in values:
        k = _key(v)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return tuple(out) if len(out) <= MAX_SET else TOP


def join(a: Vals, b: Vals) -> Vals:
    if a is TOP or b is TOP:
        return TOP
    return dedupe([*a, *b])


def truth(vals: Vals) -> bool | None:
    """True / False when every possible value is truthy / falsy; None when it depends."""
    if vals is TOP or not vals:
        return None
    try:
        flags = {bool(v) for v in vals}
    except Exception:  # a value whose truth raises is not a constant
        return None
    return flags.pop() if len(flags) == 1 else None


def positive(vals: Vals) -> bool:
    """Every possible value gives credit: a number above 0, True, or a string holding one."""
    if vals is TOP or not vals:
        return False
    for v in vals:
        if isinstance(v, str):
            try:
                v = float(v)
            except ValueError:
                return False
        if not (isinstance(v, int | float) and not isinstance(v, complex) and v > 0):
            return False
    return True


def _sized(value: Any) -> Any:
    if isinstance(value, str | bytes | list | tuple | dict | frozenset) and len(value) > MAX_LEN:
        raise Unknown
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        raise Unknown
    return value


def lift(fn, sets: list[Vals]) -> Vals:
    if any(s is TOP for s in sets):
        return TOP
    if all(len(s) == 1 for s in sets):  # the common case: one value each
        try:
            return (_sized(fn(*(s[0] for s in sets))),)
        except Exception:  # would raise at run time, or too big: no value to speak of
            return TOP
    combos: list[tuple] = [()]
    for s in sets:
        combos = [(*c, v) for c in combos for v in s]
        if len(combos) > MAX_SET * MAX_SET:
            return TOP
    out = []
    for combo in combos:
        try:
            out.append(_sized(fn(*combo)))
        except Unknown:
            return TOP
        except Exception:  # the operation would raise at run time: no value to speak of
            return TOP
    return dedupe(out)


def _pow(a, b):
    if isinstance(b, int | float) and abs(b) > 128:
        raise Unknown
    return operator.pow(a, b)


def _mul(a, b):
    if isinstance(b, str | bytes | list | tuple):
        a, b = b, a
    if isinstance(a, str | bytes | list | tuple) and isinstance(b, int) and len(a) * b > MAX_LEN:
        raise Unknown  # folded before it is built: "x" * 10**9 would exhaust the scanner
    return operator.mul(a, b)


def _shift(a, b):
    if isinstance(b, int) and b > 512:
        raise Unknown
    return operator.lshift(a, b)


def format_ok(spec: Any) -> None:
    """Format strings with huge widths or precisions (`"{:>999999999}"`) are not folded."""
    if isinstance(spec, bytes):
        spec = spec.decode("latin-1")
    if isinstance(spec, str) and re.search(r"\d{5,}|\*", spec):
        raise Unknown


def _mod(a, b):
    if isinstance(a, str | bytes):
        format_ok(a)
    return operator.mod(a, b)


SAFE_CODECS = {
    "rot13",
    "rot_13",
    "hex",
    "hex_codec",
    "base64",
    "base64_codec",
    "utf-8",
    "utf8",
    "ascii",
    "latin-1",
}


def _codec(name: Any) -> str:
    """Only codecs that cannot expand their input much (not zlib, bz2: a decompression bomb)."""
    if not isinstance(name, str) or name.lower().replace("-", "_") not in {
        c.replace("-", "_") for c in SAFE_CODECS
    }:
        raise Unknown
    return name


def guarded_method(receiver: Any, name: str):
    """A bound method of a constant, guarded against results too big to build."""
    method = getattr(receiver, name)
    if name == "format":
        format_ok(receiver)
    if name in {"center", "ljust", "rjust", "zfill"}:
        return lambda width, *rest: method(width if width <= MAX_LEN else _too_big(), *rest)
    if name == "replace":
        return lambda old, new, *rest: (
            method(old, new, *rest) if len(receiver) * max(1, len(new)) <= MAX_LEN * 4 else _too_big()
        )
    if name == "join":
        return lambda items: method(items) if len(receiver) * len(items) <= MAX_LEN * 4 else _too_big()
    return method


def binop(op: ast.operator):
    return {ast.Pow: _pow, ast.Mult: _mul, ast.LShift: _shift, ast.Mod: _mod}.get(
        type(op), BINOPS.get(type(op))
    )


def _too_big():
    raise Unknown


class Frame:
    """The names a run knows the values of, and the names its scope binds (unknown until assigned)."""

    def __init__(self, env: Env | None = None, local: frozenset = frozenset()) -> None:
        self.env = env
        self.local = local


def join_env(*envs: Env | None) -> Env | None:
    """Where paths meet: each name's values joined (None is a path that does not go on; a name
    missing from one path is unknown)."""
    live = [e for e in envs if e is not None]
    if not live:
        return None
    if len(live) == 1:
        return dict(live[0])
    keys = set().union(*live)
    out: Env = {}
    for k in keys:
        vals: Vals = ()
        for e in live:
            if k not in e:
                vals = TOP
                break
            vals = join(vals, e[k])
            if vals is TOP:
                break
        out[k] = vals
    return out


def vals_key(vals: Vals) -> Any:
    """A hashable key for a value set (local calls are memoised by their arguments' values)."""
    return None if vals is TOP else tuple(_key(v) for v in vals)
