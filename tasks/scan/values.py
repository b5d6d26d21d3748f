"""Abstract evaluation: the constant values, path strings and error paths the scan can work out
without running the reward.

Values are *value sets*: a tuple of the possible constant values of an expression, or `TOP` when
the scan cannot tell (anything read from the state, a parameter, a library object). `fold` evaluates
literals, arithmetic, comparisons (an expression compared with itself is a tautology), f-strings,
builtins (`len("x")`, `int(True)`, `float("1")`, `min`, `sum`, ...), string and dict methods,
`json.loads` of a literal (the task's parameters), rot13/base64 decoding, and calls of local
functions (each interpreted with the argument values it is given). A name outside the current run is
looked up flow-insensitively: the union of what all its bindings fold to.

Value sets and the guarded operations on them live in value_sets.py, path strings in
path_values.py. A `Run` (runs.py) interprets a function or module body in order. `run_all` runs each
once and records the value printed by each `REWARD:` call, the values each function returns, and the
names' values where each `try` starts. `error_credits` follows, in strict runs, what happens when a
`try` body fails at its first statement (the state is missing) — the handler, then the code after
the `try` — and reports credit reached that way without any check of the state deciding it.

What it cannot see: values of objects (files, workbooks, responses), mutations of containers through
calls other than methods on a name, and loop iterations beyond "the loop assigns these names".
"""

from __future__ import annotations

import ast
import operator
from typing import Any

from tasks.scan.file_index import FileIndex
from tasks.scan.inspection import STATE
from tasks.scan.path_values import PathValues
from tasks.scan.runs import Run, scope_locals
from tasks.scan.syntax import FUNCS, walk
from tasks.scan.value_sets import (
    BUILTINS,
    CMPOPS,
    LIBRARY,
    MAX_DEPTH,
    METHODS,
    REFLEXIVE,
    TOP,
    Env,
    Frame,
    Unknown,
    Vals,
    binop,
    dedupe,
    format_ok,
    guarded_method,
    join,
    lift,
    positive,
    truth,
    vals_key,
)


class Values:
    """Folding, path resolution and interpretation for one file (see the module docstring)."""

    def __init__(self, facts: FileIndex) -> None:
        self.facts = facts
        self._global: dict[str, Vals] = {}
        self._busy: set = set()
        self._calls: dict[tuple, Vals] = {}
        self._depth = 0
        self._path_values = PathValues(facts, self.const)
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
        except (Unknown, RecursionError):
            return TOP

    def const(self, node: ast.AST | None, frame: Frame | None = None) -> tuple[bool, Any]:
        """(True, value) when `node` has exactly one possible value."""
        vals = self.fold(node, frame)
        return (True, vals[0]) if vals is not TOP and len(vals) == 1 else (False, None)

    def _fold(self, node: ast.AST, frame: Frame) -> Vals:
        if isinstance(node, ast.Constant):
            return (node.value,)
        if isinstance(node, ast.Name):
            return self.lookup(node.id, frame)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return TOP
            make = {ast.Tuple: tuple, ast.List: list, ast.Set: frozenset}[type(node)]
            return lift(lambda *xs: make(xs), [self._fold(e, frame) for e in node.elts])
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                return TOP
            n = len(node.keys)
            parts = [self._fold(x, frame) for x in [*node.keys, *node.values]]
            return lift(lambda *xs: dict(zip(xs[:n], xs[n:], strict=True)), parts)
        if isinstance(node, ast.UnaryOp):
            op = {
                ast.Not: operator.not_,
                ast.USub: operator.neg,
                ast.UAdd: operator.pos,
                ast.Invert: operator.invert,
            }
            return lift(op[type(node.op)], [self._fold(node.operand, frame)])
        if isinstance(node, ast.BinOp):
            fn = binop(node.op)
            if fn is None:
                return TOP
            return lift(fn, [self._fold(node.left, frame), self._fold(node.right, frame)])
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
            return lift(lambda *xs: "".join(xs), [self._fstring_part(v, frame) for v in node.values])
        if isinstance(node, ast.FormattedValue):
            return self._fstring_part(node, frame)
        if isinstance(node, ast.Subscript):
            index = self._slice(node.slice, frame)
            return lift(operator.getitem, [self._fold(node.value, frame), index])
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
            format_ok(spec)
            return format(conv(value), spec)

        return lift(fmt, [self._fold(node.value, frame), spec])

    def _slice(self, node: ast.AST, frame: Frame) -> Vals:
        if isinstance(node, ast.Slice):
            parts = [
                self._fold(p, frame) if p is not None else (None,)
                for p in (node.lower, node.upper, node.step)
            ]
            return lift(slice, parts)
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

        return lift(chain, operands)

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
            return lift(
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
            return apply(guarded_method(receiver[0], func.attr))
        return TOP

    def _call_local(self, fn: ast.AST, call: ast.Call, args: list[Vals], kwargs: dict[str, Vals]) -> Vals:
        if self._depth >= MAX_DEPTH or not isinstance(fn, FUNCS):
            return TOP
        env = self._bind_params(fn, args, kwargs)
        if env is None:
            return TOP
        key = (id(fn), tuple(sorted((k, vals_key(v)) for k, v in env.items())))
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

    def lookup(self, name: str, frame: Frame) -> Vals:
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

    def paths(self, node: ast.AST) -> Any:
        """The path strings `node` may name ("*" for parts the scan cannot tell), "param" when it is a
        parameter of the enclosing function, or None (path_values.py)."""
        return self._path_values.paths(node)

    # --- interpretation -----------------------------------------------------------------------------

    def local_names(self, scope: ast.AST) -> frozenset:
        """Names a function (or the module) binds in its own body."""
        if not self._locals:
            self._locals = scope_locals(self.facts)
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
        return dedupe(out)

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


def _statement_of(facts: FileIndex, node: ast.AST) -> ast.AST:
    while node is not None and not isinstance(node, ast.stmt):
        node = facts.parents.get(node)
    return node
