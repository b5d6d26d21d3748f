"""Abstract evaluation: the constant values, path strings and error paths the scan can work out
without running the reward.

Values are *value sets*: a tuple of the possible constant values of an expression, or `TOP` when
the scan cannot tell (anything read from the state, a parameter, a library object). `fold` evaluates
literals, arithmetic, comparisons (an expression compared with itself is a tautology), f-strings,
builtins (`len("x")`, `int(True)`, `float("1")`, `min`, `sum`, ...), string and dict methods,
`json.loads` of a literal (the task's parameters), rot13/base64 decoding, and calls of local
functions (each interpreted with the argument values it is given). A name outside the current run is
looked up flow-insensitively: the union of what all its bindings fold to.

`Run` interprets a function or module body in order, keeping a value set per name: `if` with a
constant test takes one branch, otherwise both and joins them; loops and handlers make what they
assign unknown. A run records the value printed by each `REWARD:` call, the values each function
returns, and the names' values where each `try` starts. In *strict* mode a run follows one path
only and stops at the first test it cannot decide: `error_credits` uses it to follow what happens
when a `try` body fails at its first statement (the state is missing) — the handler, then the code
after the `try` — and reports credit reached that way without any check of the state deciding it.

What it cannot see: values of objects (files, workbooks, responses), mutations of containers through
calls other than methods on a name, and loop iterations beyond "the loop assigns these names".
"""

from __future__ import annotations

import ast
import base64
import codecs
import contextlib
import json
import math
import operator
import re
from typing import TYPE_CHECKING, Any

from tasks.scan.facts import EXIT_CALLS, FUNCS, SCOPES, STATE, walk, walk_local

if TYPE_CHECKING:
    from tasks.scan.facts import TreeFacts

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


class _Unknown(Exception):
    """Raised inside folding when a value cannot be worked out."""


def _key(value: Any) -> tuple:
    return (type(value).__name__, repr(value))


def _dedupe(values: list) -> Vals:
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
    return _dedupe([*a, *b])


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
        raise _Unknown
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        raise _Unknown
    return value


def _lift(fn, sets: list[Vals]) -> Vals:
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
        except _Unknown:
            return TOP
        except Exception:  # the operation would raise at run time: no value to speak of
            return TOP
    return _dedupe(out)


def _pow(a, b):
    if isinstance(b, int | float) and abs(b) > 128:
        raise _Unknown
    return operator.pow(a, b)


def _mul(a, b):
    if isinstance(b, str | bytes | list | tuple):
        a, b = b, a
    if isinstance(a, str | bytes | list | tuple) and isinstance(b, int) and len(a) * b > MAX_LEN:
        raise _Unknown  # folded before it is built: "x" * 10**9 would exhaust the scanner
    return operator.mul(a, b)


def _shift(a, b):
    if isinstance(b, int) and b > 512:
        raise _Unknown
    return operator.lshift(a, b)


def _format_ok(spec: Any) -> None:
    """Format strings with huge widths or precisions (`"{:>999999999}"`) are not folded."""
    if isinstance(spec, bytes):
        spec = spec.decode("latin-1")
    if isinstance(spec, str) and re.search(r"\d{5,}|\*", spec):
        raise _Unknown


def _mod(a, b):
    if isinstance(a, str | bytes):
        _format_ok(a)
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
        raise _Unknown
    return name


def _method(receiver: Any, name: str):
    """A bound method of a constant, guarded against results too big to build."""
    method = getattr(receiver, name)
    if name == "format":
        _format_ok(receiver)
    if name in {"center", "ljust", "rjust", "zfill"}:
        return lambda width, *rest: method(width if width <= MAX_LEN else _too_big(), *rest)
    if name == "replace":
        return lambda old, new, *rest: (
            method(old, new, *rest) if len(receiver) * max(1, len(new)) <= MAX_LEN * 4 else _too_big()
        )
    if name == "join":
        return lambda items: method(items) if len(receiver) * len(items) <= MAX_LEN * 4 else _too_big()
    return method


def _binop(op: ast.operator):
    return {ast.Pow: _pow, ast.Mult: _mul, ast.LShift: _shift, ast.Mod: _mod}.get(
        type(op), BINOPS.get(type(op))
    )


def _too_big():
    raise _Unknown


class Frame:
    """The names a run knows the values of, and the names its scope binds (unknown until assigned)."""

    def __init__(self, env: Env | None = None, local: frozenset = frozenset()) -> None:
        self.env = env
        self.local = local


class Values:
    """Folding, path resolution and interpretation for one file (see the module docstring)."""

    def __init__(self, facts: TreeFacts) -> None:
        self.facts = facts
        self._global: dict[str, Vals] = {}
        self._busy: set = set()
        self._calls: dict[tuple, Vals] = {}
        self._depth = 0
        self._paths: dict[int, Any] = {}
        self._locals: dict[int, frozenset] = {}
        self._done = False
        self.print_vals: dict[int, Vals] = {}  # id(REWARD print call) -> printed values
        self.fn_returns: dict[int, list[tuple[ast.AST, Vals]]] = {}  # id(def) -> (return, values)
        self.try_env: dict[int, Env] = {}  # id(try) -> names' values where it starts
        self._print_at: dict[int, list[tuple[ast.Call, ast.expr | None, float | None]]] = {}

    # --- folding ------------------------------------------------------------------------------------

    def fold(self, node: ast.AST | None, frame: Frame | None = None) -> Vals:
        """The possible values of `node`, or TOP."""
        if node is None:
            return TOP
        try:
            return self._fold(node, frame or Frame())
        except (_Unknown, RecursionError):
            return TOP

    def const(self, node: ast.AST | None, frame: Frame | None = None) -> tuple[bool, Any]:
        """(True, value) when `node` has exactly one possible value."""
        vals = self.fold(node, frame)
        return (True, vals[0]) if vals is not TOP and len(vals) == 1 else (False, None)

    def _fold(self, node: ast.AST, frame: Frame) -> Vals:
        if isinstance(node, ast.Constant):
            return (node.value,)
        if isinstance(node, ast.Name):
            return self._lookup(node.id, frame)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return TOP
            make = {ast.Tuple: tuple, ast.List: list, ast.Set: frozenset}[type(node)]
            return _lift(lambda *xs: make(xs), [self._fold(e, frame) for e in node.elts])
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                return TOP
            n = len(node.keys)
            parts = [self._fold(x, frame) for x in [*node.keys, *node.values]]
            return _lift(lambda *xs: dict(zip(xs[:n], xs[n:], strict=True)), parts)
        if isinstance(node, ast.UnaryOp):
            op = {
                ast.Not: operator.not_,
                ast.USub: operator.neg,
                ast.UAdd: operator.pos,
                ast.Invert: operator.invert,
            }
            return _lift(op[type(node.op)], [self._fold(node.operand, frame)])
        if isinstance(node, ast.BinOp):
            fn = _binop(node.op)
            if fn is None:
                return TOP
            return _lift(fn, [self._fold(node.left, frame), self._fold(node.right, frame)])
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, frame)
        if isinstance(node, ast.Compare):
            return self._compare(node, frame)
        if isinstance(node, ast.IfExp):
            test = truth(self._fold(node.test, frame))
            if test is None:
                return join(self._fold(node.body, frame), self._fold(node.orelse, frame))
            return self._fold(node.body if test else node.orelse, frame)
        if isinstance(node, ast.JoinedStr):
            return _lift(lambda *xs: "".join(xs), [self._fstring_part(v, frame) for v in node.values])
        if isinstance(node, ast.FormattedValue):
            return self._fstring_part(node, frame)
        if isinstance(node, ast.Subscript):
            index = self._slice(node.slice, frame)
            return _lift(operator.getitem, [self._fold(node.value, frame), index])
        if isinstance(node, ast.Call):
            return self._call(node, frame)
        if isinstance(node, ast.NamedExpr):
            return self._fold(node.value, frame)
        return TOP

    def _fstring_part(self, node: ast.AST, frame: Frame) -> Vals:
        if isinstance(node, ast.Constant):
            return (str(node.value),)
        assert isinstance(node, ast.FormattedValue)
        conv = {115: str, 114: repr, 97: ascii}.get(node.conversion, lambda x: x)
        spec = self._fold(node.format_spec, frame) if node.format_spec is not None else ("",)

        def fmt(value, spec):
            _format_ok(spec)
            return format(conv(value), spec)

        return _lift(fmt, [self._fold(node.value, frame), spec])

    def _slice(self, node: ast.AST, frame: Frame) -> Vals:
        if isinstance(node, ast.Slice):
            parts = [
                self._fold(p, frame) if p is not None else (None,)
                for p in (node.lower, node.upper, node.step)
            ]
            return _lift(slice, parts)
        return self._fold(node, frame)

    def _boolop(self, node: ast.BoolOp, frame: Frame) -> Vals:
        is_and = isinstance(node.op, ast.And)
        current = self._fold(node.values[0], frame)
        for value in node.values[1:]:
            t = truth(current)
            if t is None:
                return TOP
            if t is not is_and:  # and: a falsy value decides; or: a truthy one
                return current
            current = self._fold(value, frame)
        return current

    def _compare(self, node: ast.Compare, frame: Frame) -> Vals:
        if (
            len(node.ops) == 1
            and type(node.ops[0]) in REFLEXIVE
            and self.same(node.left, node.comparators[0])
        ):
            return (REFLEXIVE[type(node.ops[0])],)  # x == x: true whatever x is
        operands = [self._fold(x, frame) for x in [node.left, *node.comparators]]

        def chain(*xs):
            return all(CMPOPS[type(op)](a, b) for op, a, b in zip(node.ops, xs, xs[1:], strict=False))

        return _lift(chain, operands)

    def same(self, a: ast.AST, b: ast.AST) -> bool:
        """Two expressions that compute the same thing from the same inputs (no randomness, no clock)."""
        if isinstance(a, ast.Constant) or type(a) is not type(b):
            return False
        if any(id(n) in self.facts._nondet_ids for n in walk(a)):
            return False
        return ast.dump(a) == ast.dump(b)

    def _call(self, node: ast.Call, frame: Frame) -> Vals:
        f = self.facts
        func = node.func
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return TOP
        args = [self._fold(a, frame) for a in node.args]
        kwnames = [k.arg for k in node.keywords]
        kwargs = [self._fold(k.value, frame) for k in node.keywords]

        def apply(fn):
            return _lift(
                lambda *xs: fn(*xs[: len(args)], **dict(zip(kwnames, xs[len(args) :], strict=True))),
                [*args, *kwargs],
            )

        if isinstance(func, ast.Name):
            name = func.id
            if name in f.functions:
                defs = f.functions[name]
                if len(defs) != 1 or node.keywords and not all(kwnames) or f.fn_insp.get(name, 0) & STATE:
                    return TOP  # what it returns depends on the state: no constant
                return self._call_local(defs[0], node, args, dict(zip(kwnames, kwargs, strict=True)))
            if name in BUILTINS and name not in f.rebound and name not in f.aliases:
                folded = apply(BUILTINS[name])
                if folded is TOP and name == "max" and len(args) > 1:
                    floor = [v for v in args if v is not TOP and positive(v)]
                    if floor:  # max(x, 1.0) is at least 1.0 whatever x is: credit all the same
                        return (min(float(x) for x in floor[0]),)
                return folded
        qual = f.qualname(func)
        if qual in LIBRARY:
            return apply(LIBRARY[qual])
        if isinstance(func, ast.Attribute):
            receiver = self._fold(func.value, frame)
            if receiver is TOP or len(receiver) != 1:
                return TOP
            allowed = METHODS.get(type(receiver[0]), ())
            if func.attr not in allowed:
                return TOP
            return apply(_method(receiver[0], func.attr))
        return TOP

    def _call_local(self, fn: ast.AST, call: ast.Call, args: list[Vals], kwargs: dict[str, Vals]) -> Vals:
        if self._depth >= MAX_DEPTH or not isinstance(fn, FUNCS):
            return TOP
        env = self._bind_params(fn, args, kwargs)
        if env is None:
            return TOP
        key = (id(fn), tuple(sorted((k, _vals_key(v)) for k, v in env.items())))
        if key in self._calls:
            return self._calls[key]
        self._calls[key] = TOP  # recursion: unknown
        self._depth += 1
        try:
            run = Run(self, fn, env, record=False)
            run.block(fn.body, run.frame.env)
            result: Vals = () if not run.falls else (None,)
            for _, vals in run.returns:
                result = join(result, vals)
            if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in self.facts.returns(fn)):
                result = TOP
        finally:
            self._depth -= 1
        self._calls[key] = result
        return result

    def _bind_params(self, fn: ast.AST, args: list[Vals], kwargs: dict[str, Vals]) -> Env | None:
        a = fn.args
        if a.vararg or a.kwarg or a.kwonlyargs:
            return None
        positional = [*a.posonlyargs, *a.args]
        if len(args) > len(positional):
            return None
        defaults = dict(
            zip([p.arg for p in positional[len(positional) - len(a.defaults) :]], a.defaults, strict=True)
        )
        env: Env = {}
        for i, p in enumerate(positional):
            if i < len(args):
                env[p.arg] = args[i]
            elif p.arg in kwargs:
                env[p.arg] = kwargs[p.arg]
            elif p.arg in defaults:
                env[p.arg] = self.fold(defaults[p.arg])
            else:
                return None
        return env

    def _lookup(self, name: str, frame: Frame) -> Vals:
        if frame.env is not None and name in frame.env:
            return frame.env[name]
        if name in frame.local:
            return TOP
        return self.global_value(name)

    def global_value(self, name: str) -> Vals:
        """What a name holds wherever it is read: the union of all its bindings, if all are plain
        assignments of values the scan can fold."""
        if name in self._global:
            return self._global[name]
        if name in self._busy:
            return TOP
        binds = self.facts.bindings.get(name, [])
        if (
            not binds
            or name in self.facts.functions
            or any(b.kind not in ("assign", "walrus") for b in binds)
        ):
            self._global[name] = TOP
            return TOP
        self._busy.add(name)
        try:
            result: Vals = ()
            for b in binds:
                if isinstance(b.node, ast.Assign) and not all(
                    isinstance(t, ast.Name) for t in b.node.targets
                ):
                    result = TOP  # unpacking and item stores: not a plain value
                if result is TOP:
                    break
                result = join(result, self.fold(b.value))
        finally:
            self._busy.discard(name)
        self._global[name] = result
        return result

    # --- paths --------------------------------------------------------------------------------------

    def paths(self, node: ast.AST) -> Any:
        """The path strings `node` may name ("*" for parts the scan cannot tell), "param" when it is a
        parameter of the enclosing function, or None."""
        if id(node) not in self._paths:
            self._paths[id(node)] = None  # cycles; and what an unknown or too deep path stays
            with contextlib.suppress(_Unknown, RecursionError):
                self._paths[id(node)] = self._path(node, 0)
        return self._paths[id(node)]

    def _path(self, node: ast.AST, depth: int) -> Any:
        if depth > 12:
            return None
        f = self.facts
        if isinstance(node, ast.Constant):
            return frozenset({node.value}) if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            binds = f.bindings.get(node.id, [])
            if any(b.kind == "param" for b in binds):
                return "param"
            found: set[str] = set()
            for b in binds:
                if b.kind == "loop":
                    found.add("*")
                    continue
                if b.kind == "mutate":
                    continue
                sub = (
                    self._path(b.value, depth + 1)
                    if b.value is not None and b.kind in ("assign", "with", "walrus")
                    else None
                )
                if not isinstance(sub, frozenset):
                    return sub if sub == "param" else None
                found |= sub
            return frozenset(found) if found and len(found) <= MAX_SET else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.Add):
            left, right = self._path(node.left, depth + 1), self._path(node.right, depth + 1)
            if "param" in (left, right):
                return "param"
            left, right = left or frozenset({"*"}), right or frozenset({"*"})
            glue = _join_path if isinstance(node.op, ast.Div) else str.__add__
            return _combine(glue, [left, right])
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                sub = (
                    self._path(v.value, depth + 1)
                    if isinstance(v, ast.FormattedValue)
                    else self._path(v, depth + 1)
                )
                if sub == "param":
                    return "param"
                parts.append(sub or frozenset({"*"}))
            return _combine(lambda *xs: "".join(xs), parts)
        if isinstance(node, ast.Call):
            return self._call_path(node, depth)
        if isinstance(node, ast.Attribute) and (up := _UPWARD.get(node.attr)) is not None:
            sub = self._path(node.value, depth + 1)  # .parent, .anchor, .root: the way up to /
            return frozenset(_up(p, up) for p in sub) if isinstance(sub, frozenset) else sub
        if isinstance(node, ast.Attribute) and f.qualname(node) in OS_PATH_PARTS:
            return frozenset({OS_PATH_PARTS[f.qualname(node)]})
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "parents"
            and isinstance(i := self.const(node.slice)[1], int)
        ):  # Path.home().parents[1] is the root
            sub = self._path(node.value.value, depth + 1)
            return (
                frozenset(_up(p, i + 1 if i >= 0 else 99) for p in sub) if isinstance(sub, frozenset) else sub
            )
        if isinstance(node, ast.Subscript):
            if f.qualname(node.value) in {"os.environ", "environ"} and _is_const(node.slice, "HOME"):
                return frozenset({"/home/user"})
            ok, value = self.const(node)
            return frozenset({value}) if ok and isinstance(value, str) else None
        return None

    def _call_path(self, node: ast.Call, depth: int) -> Any:
        f = self.facts
        qual = f.qualname(node.func) or ""
        name = f.call_name(node)
        args = node.args
        if qual in {"pathlib.Path.home", "Path.home", "os.path.expanduser"} or name == "home":
            if name == "expanduser" and args:
                sub = self._path(args[0], depth + 1)
                return (
                    frozenset(p.replace("~", "/home/user", 1) for p in sub)
                    if isinstance(sub, frozenset)
                    else sub
                )
            return frozenset({"/home/user"})
        if (
            qual in {"os.getenv", "os.environ.get"}
            and args
            and isinstance(args[0], ast.Constant)
            and args[0].value == "HOME"
        ):
            return frozenset({"/home/user"})
        joins = {
            "pathlib.Path",
            "Path",
            "pathlib.PurePath",
            "PurePath",
            "pathlib.PosixPath",
            "PosixPath",
            "os.path.join",
            "posixpath.join",
        }
        if qual in joins or name == "joinpath":
            parts = [node.func.value] if name == "joinpath" and isinstance(node.func, ast.Attribute) else []
            parts += args
            if not parts:
                return frozenset({"."})
            subs = [self._path(p, depth + 1) for p in parts]
            if "param" in subs:
                return "param"
            return _combine(lambda *xs: _join_path(*xs), [s or frozenset({"*"}) for s in subs])
        if qual in {"os.path.dirname", "posixpath.dirname"} and args:
            sub = self._path(args[0], depth + 1)
            return frozenset(_up(p, 1) for p in sub) if isinstance(sub, frozenset) else sub
        if name in {"with_suffix", "resolve", "absolute", "expanduser", "with_stem"} and isinstance(
            node.func, ast.Attribute
        ):
            return self._path(node.func.value, depth + 1)
        if qual in {"str", "os.fspath", "os.path.abspath", "os.path.realpath", "os.path.normpath"} and args:
            return self._path(args[0], depth + 1)
        if f.call_kind(node) is not None:  # open(p), p.open(): a file handle names its path
            inner = f.read_path(node)
            return self._path(inner, depth + 1) if inner is not None and inner is not node else None
        ok, value = self.const(node)
        return frozenset({value}) if ok and isinstance(value, str) else None

    # --- interpretation -----------------------------------------------------------------------------

    def local_names(self, scope: ast.AST) -> frozenset:
        """Names a function (or the module) binds in its own body."""
        if not self._locals:
            found: dict[int, set] = {}
            f = self.facts
            for node in f.nodes:
                names: list[str] = []
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
                    names = [node.id]
                elif isinstance(node, DEF_NODES):
                    names = [node.name]
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    names = [(a.asname or a.name).split(".")[0] for a in node.names]
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    names = [node.name]
                elif isinstance(node, ast.arg):
                    found.setdefault(id(f.scope_of(f.parents[node])), set()).add(node.arg)
                    continue
                if names:
                    found.setdefault(id(f.scope_of(node)), set()).update(names)
            self._locals = {k: frozenset(v) for k, v in found.items()}
            self._locals.setdefault(-1, frozenset())
        return self._locals.get(id(scope), frozenset())

    def run_all(self) -> None:
        """Interpret the module body and every function once (parameters unknown), recording the
        printed REWARD values, functions' return values and the values where each `try` starts."""
        if self._done:
            return
        self._done = True
        for call, value, lit in getattr(self.facts, "reward_prints", []):
            stmt = _statement_of(self.facts, call)
            self._print_at.setdefault(id(stmt), []).append((call, value, lit))
        run = Run(self, self.facts.tree, {})
        run.block(self.facts.tree.body, run.frame.env)
        for defs in self.facts.functions.values():
            for fn in defs:
                run = Run(self, fn, {})
                run.block(fn.body, run.frame.env)
                self.fn_returns[id(fn)] = run.returns

    def prints_in(self, stmt: ast.stmt) -> list[tuple[ast.Call, ast.expr | None, float | None]]:
        return self._print_at.get(id(stmt), [])

    def printed(self, value: ast.expr | None, lit: float | None, frame: Frame) -> Vals:
        if value is None:
            return (lit,) if lit is not None else TOP
        vals = self.fold(value, frame)
        if vals is TOP:
            return TOP
        out = []
        for v in vals:
            try:
                out.append(float(v))
            except (TypeError, ValueError):
                return TOP
        return _dedupe(out)

    def error_credits(self, score_names: set[str], scored: set[int]) -> list[tuple[ast.Try, ast.AST, str]]:
        """(try, credit node, what) for credit reached when a try body fails at its first statement:
        through a handler that does not leave, or in a `finally` block, with no state check deciding."""
        self.run_all()
        found = []
        for node in self.facts.nodes:
            if not isinstance(node, ast.Try | ast.TryStar) or id(node) not in self.try_env:
                continue
            start = self.try_env[id(node)]
            scope = self.facts.scope_of(node)
            paths = [(h.body, True) for h in node.handlers] + (
                [(node.finalbody, False)] if node.finalbody else []
            )
            for block, resumes in paths:
                run = Run(
                    self, scope, dict(start), strict=True, scored=id(scope) in scored, score_names=score_names
                )
                env = run.block(block, run.frame.env)
                if env is not None and resumes:
                    if node.finalbody:
                        env = run.block(node.finalbody, env)
                    run.resume(node, env)
                found.extend((node, where, what) for where, what in run.events)
        return found


DEF_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class Run:
    """One abstract run through a scope's statements (see the module docstring)."""

    def __init__(
        self,
        values: Values,
        scope: ast.AST,
        env: Env,
        *,
        record: bool = True,
        strict: bool = False,
        scored: bool = False,
        score_names: set[str] | None = None,
    ) -> None:
        self.v = values
        self.f = values.facts
        self.scope = scope
        self.frame = Frame(env, values.local_names(scope))
        self.record = record and not strict
        self.strict = strict
        self.scored = scored
        self.score_names = score_names or set()
        self.returns: list[tuple[ast.AST, Vals]] = []
        self.events: list[tuple[ast.AST, str]] = []
        self.falls = False

    def fold(self, node: ast.AST | None, env: Env) -> Vals:
        return self.v.fold(node, Frame(env, self.frame.local))

    def block(self, stmts: list[ast.stmt], env: Env | None) -> Env | None:
        for stmt in stmts:
            if env is None:
                return None
            env = self.stmt(stmt, env)
        if env is not None and stmts is getattr(self.scope, "body", None):
            self.falls = True
        return env

    def _assigned(self, stmts: list[ast.AST]) -> set[str]:
        return {
            n.id
            for n in walk_local(stmts)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
        } | {
            r.id
            for n in walk_local(stmts)
            if isinstance(n, ast.Expr)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Attribute)
            and isinstance(r := _root(n.value.func.value), ast.Name)
        }

    def _forget(self, env: Env, names: set[str]) -> Env:
        return {**env, **dict.fromkeys(names, TOP)}

    def stmt(self, s: ast.stmt, env: Env) -> Env | None:
        for call, value, lit in self.v.prints_in(s):
            vals = self.v.printed(value, lit, Frame(env, self.frame.local))
            if self.record:
                prev = self.v.print_vals.get(id(call), ())
                self.v.print_vals[id(call)] = join(prev, vals)
            elif self.strict and positive(vals):
                self.events.append((call, f"prints `REWARD: {vals[0]}`"))
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Call) and self.f.qualname(s.value.func) in EXIT_CALLS:
                return None
            if isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute):
                root = _root(s.value.func.value)
                if isinstance(root, ast.Name):
                    return {**env, root.id: TOP}
            return env
        if isinstance(s, ast.Assign):
            vals = self.fold(s.value, env)
            env = dict(env)
            for target in s.targets:
                self._store(target, vals, env)
            return env
        if isinstance(s, ast.AnnAssign):
            env = dict(env)
            self._store(s.target, self.fold(s.value, env) if s.value is not None else TOP, env)
            return env
        if isinstance(s, ast.AugAssign):
            env = dict(env)
            if isinstance(s.target, ast.Name):
                current = self.v._lookup(s.target.id, Frame(env, self.frame.local))
                fn = _binop(s.op)
                inc = self.fold(s.value, env)
                env[s.target.id] = _lift(fn, [current, inc]) if fn else TOP
                if (
                    self.strict
                    and s.target.id in self.score_names
                    and isinstance(s.op, ast.Add)
                    and positive(inc)
                ):
                    self.events.append((s, f"adds {ast.unparse(s.value)[:40]} to `{s.target.id}`"))
            else:
                self._store(s.target, TOP, env)
            return env
        if isinstance(s, ast.If):
            test = truth(self.fold(s.test, env))
            if test is None:
                if self.strict:
                    return None  # the state decides from here on
                return _join_env(self.block(s.body, dict(env)), self.block(s.orelse, dict(env)))
            return self.block(s.body if test else s.orelse, dict(env))
        if isinstance(s, ast.For | ast.AsyncFor | ast.While):
            if self.strict:
                return None
            if isinstance(s, ast.While) and truth(self.fold(s.test, env)) is False:
                return self.block(s.orelse, env)
            entry = self._forget(env, self._assigned([s]))
            end = self.block(s.body, dict(entry))
            return self.block(s.orelse, _join_env(entry, end))
        if isinstance(s, ast.With | ast.AsyncWith):
            env = dict(env)
            for item in s.items:
                if item.optional_vars is not None:
                    self._store(item.optional_vars, TOP, env)
            return self.block(s.body, env)
        if isinstance(s, ast.Try | ast.TryStar):
            if self.strict:  # the state is missing: this try fails at its first statement too
                for h in s.handlers:
                    end = self.block(h.body, self._forget(env, {h.name} if h.name else set()))
                    if end is not None:
                        return self.block(s.finalbody, end) if s.finalbody else end
                return None
            if self.record:
                self.v.try_env[id(s)] = _join_env(self.v.try_env.get(id(s)), env)
            body_end = self.block(s.body, dict(env))
            start = self._forget(env, self._assigned(s.body))
            ends = [
                self.block(h.body, self._forget(start, {h.name} if h.name else set())) for h in s.handlers
            ]
            end = _join_env(self.block(s.orelse, body_end) if body_end is not None else None, *ends)
            if s.finalbody:
                finished = self.block(s.finalbody, end if end is not None else dict(start))
                return finished if end is not None else None
            return end
        if isinstance(s, ast.Return):
            vals = self.fold(s.value, env) if s.value is not None else (None,)
            self.returns.append((s, vals))
            if self.strict and self.scored and (positive(vals) or vals == (True,)):
                self.events.append((s, f"returns {ast.unparse(s.value)[:40] if s.value else 'None'}"))
            return None
        if isinstance(s, ast.Raise | ast.Break | ast.Continue):
            return None
        if isinstance(s, DEF_NODES):
            return {**env, s.name: TOP}
        if isinstance(s, ast.Import | ast.ImportFrom):
            return {**env, **{(a.asname or a.name).split(".")[0]: TOP for a in s.names}}
        if isinstance(s, ast.Delete | ast.Global | ast.Nonlocal):
            names = set(getattr(s, "names", [])) | self._assigned([s])
            return self._forget(env, names)
        if isinstance(s, ast.Match):
            if self.strict:
                return None
            # the names a pattern captures are unknown; with an irrefutable case (`case _:`) some
            # case always runs, so "no case matched" is not a path
            entry = self._forget(env, _captured(s))
            ends = [self.block(c.body, dict(entry)) for c in s.cases]
            return _join_env(*ends) if _irrefutable(s.cases[-1]) else _join_env(entry, *ends)
        return env

    def _store(self, target: ast.AST, vals: Vals, env: Env) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = vals
        elif isinstance(target, ast.Tuple | ast.List):
            n = len(target.elts)
            single = (
                vals is not TOP and len(vals) == 1 and isinstance(vals[0], tuple | list) and len(vals[0]) == n
            )
            for i, elt in enumerate(target.elts):
                self._store(elt, (vals[0][i],) if single else TOP, env)
        elif isinstance(target, ast.Starred):
            self._store(target.value, TOP, env)
        else:
            root = _root(target)
            if isinstance(root, ast.Name):
                env[root.id] = TOP

    def resume(self, stmt: ast.AST, env: Env | None) -> None:
        """Strict mode: go on after `stmt` (a try whose handler fell through), block by block, up to
        the end of its function or the first loop around it."""
        node = stmt
        while env is not None:
            parent = self.f.parents.get(node)
            if parent is None:
                return
            block = _block_of(parent, node)
            if block is None:
                return
            env = self.block(block[block.index(node) + 1 :] if node in block else [], env)
            if env is None or isinstance(parent, (*SCOPES, ast.For, ast.AsyncFor, ast.While)):
                return
            if isinstance(parent, ast.ExceptHandler):
                parent = self.f.parents[parent]
            if (
                isinstance(parent, ast.Try | ast.TryStar)
                and parent.finalbody
                and block is not parent.finalbody
            ):
                env = self.block(parent.finalbody, env)
            if isinstance(parent, ast.match_case):
                parent = self.f.parents[parent]
            node = parent


def _captured(match: ast.Match) -> set[str]:
    names = {n.name for n in walk(match) if isinstance(n, ast.MatchAs | ast.MatchStar) and n.name}
    return names | {n.rest for n in walk(match) if isinstance(n, ast.MatchMapping) and n.rest}


def _irrefutable(case: ast.match_case) -> bool:
    pattern = case.pattern
    while isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        pattern = pattern.pattern
    return case.guard is None and isinstance(pattern, ast.MatchAs)


_UPWARD = {"parent": 1, "anchor": 99, "root": 99}  # how many folders up (99: to the top)
OS_PATH_PARTS = {"os.pardir": "..", "os.curdir": ".", "os.sep": "/", "os.path.sep": "/"}


def _up(path: str, levels: int) -> str:
    """`path` `levels` folders up, as pathlib goes: /home/user -> /home -> /; x -> "." (relative)."""
    for _ in range(levels):
        if path in ("/", "."):
            break
        path = path.rstrip("/").rsplit("/", 1)[0] if "/" in path.rstrip("/") else "."
        path = path or "/"
    return path


def _is_const(node: ast.AST, value: Any) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def _block_of(parent: ast.AST, child: ast.AST) -> list | None:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(parent, name, None)
        if isinstance(block, list) and any(s is child for s in block):
            return block
    return None


def _statement_of(facts: TreeFacts, node: ast.AST) -> ast.AST:
    while node is not None and not isinstance(node, ast.stmt):
        node = facts.parents.get(node)
    return node


def _root(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        node = node.value
    return node


def _join_env(*envs: Env | None) -> Env | None:
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


def _vals_key(vals: Vals) -> Any:
    return None if vals is TOP else tuple(_key(v) for v in vals)


def _join_path(*parts: str) -> str:
    out = ""
    for p in parts:
        out = p if p.startswith("/") or not out else out.rstrip("/") + "/" + p
    return out


def _combine(glue, sets: list[frozenset]) -> frozenset | None:
    combos: list[tuple] = [()]
    for s in sets:
        combos = [(*c, v) for c in combos for v in s if isinstance(v, str)]
        if len(combos) > MAX_SET:
            return None
    found = frozenset(glue(*c) for c in combos)
    return found or None
