"""What the reward scanner knows about the syntax of one parsed reward.py, computed once per file:
parents, import aliases, local functions, name bindings, the control context of every node (the
tests and exits that decide whether it runs) and what each call looks at (a read, a listing, a
probe, a hub request, an input that is not the state). facts.py builds provenance on top of it.

A name's bindings carry the tests that decide whether the binding runs (`ok = False` inside
`if row.value is None` depends on the sheet; in a try body every earlier statement is such a test,
since it may raise).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tasks.scan.call_kinds import (
    ALLOWED_ENV,
    EXISTS_CALLS,
    EXIT_CALLS,
    LISTING_CALLS,
    META_CALLS,
    NO_ARG_CLOCK,
    NONDET_ATTRS,
    NONDET_CALLS,
    PATH_METHODS,
    READ_CALLS,
    REQUEST_METHODS,
    XML_PARSERS,
)
from tasks.scan.inspection import Inspection
from tasks.scan.syntax import COMPREHENSIONS, DEFS, FUNCS, SCOPES, breadth_first, kids


@dataclass
class Binding:
    """One place a name gets a value; `sources` are the value plus what decides the binding runs."""

    name: str
    node: ast.AST
    value: ast.expr | None
    kind: str  # assign | aug | loop | with | param | walrus | except | mutate | import | def
    sources: list[ast.AST] = field(default_factory=list)


@dataclass
class Context:
    """What decides whether a node runs: tests and exits (`guards`), the loops around it (`loops`: the
    iterated expressions, or the while test) and the except handler it sits in, if any."""

    guards: list[ast.AST]
    loops: list[ast.AST]
    handler: ast.ExceptHandler | None
    final: ast.Try | None = None  # the try whose `finally` block holds the node

    @property
    def looped(self) -> bool:
        return bool(self.loops)

    @property
    def conditional(self) -> bool:
        return bool(self.guards) or self.looped


class FileIndex:
    """Parents, import aliases, functions, bindings, control context and call kinds of a tree."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.nodes = breadth_first(tree)  # every rule walks the whole file; walk it once
        self._contexts: dict[int, Context] = {}
        self._guards_before: dict[int, tuple[ast.AST, ...]] | None = None
        self._exits: dict[int, bool] | None = None
        self._returns: dict[int, list] | None = None
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in self.nodes:
            for child in kids(node):
                self.parents[child] = node
        self.aliases = self._aliases()
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in self.nodes:
            if isinstance(node, FUNCS):
                self.functions.setdefault(node.name, []).append(node)
        self.bindings = self._bindings()
        # names rebound as such (not just through `x.attr = ...` / `x[k] = ...`, which change x's content)
        self.rebound = {
            n.id for n in self.nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
        } | {n.arg for n in self.nodes if isinstance(n, ast.arg)}
        self.sessions = self._session_names()
        self.nondet_sources = [(n, why) for n in self.nodes if (why := self.nondet_source(n))]
        self._nondet_ids = {id(n) for n, _ in self.nondet_sources}
        # what each local function's result is computed from: provenance (facts.py) fills it in;
        # values.py reads it so as not to fold a function whose result the state decides
        self.fn_insp: dict[str, Inspection] = {}

    # --- names --------------------------------------------------------------------------------------

    def _aliases(self) -> dict[str, str]:
        aliases: dict[str, str] = {}
        for node in self.nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        return aliases

    def qualname(self, node: ast.AST) -> str | None:
        """`subprocess.run` for `sp.run` after `import subprocess as sp`; None for computed receivers."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            base = self.qualname(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    @staticmethod
    def call_name(call: ast.Call) -> str | None:
        func = call.func
        return (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )

    def _bindings(self) -> dict[str, list[Binding]]:
        out: dict[str, list[Binding]] = {}

        def bind(target: ast.AST, node: ast.AST, value: ast.expr | None, kind: str) -> None:
            for name in _target_names(target):
                sources = [*([value] if value is not None else []), *self.context(node).guards]
                out.setdefault(name, []).append(Binding(name, node, value, kind, sources))

        for node in self.nodes:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    bind(t, node, node.value, "assign")
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                bind(node.target, node, node.value, "aug" if isinstance(node, ast.AugAssign) else "assign")
            elif isinstance(node, ast.NamedExpr):
                bind(node.target, node, node.value, "walrus")
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                bind(node.target, node, node.iter, "loop")
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                bind(node.optional_vars, self.parents[node], node.context_expr, "with")
            elif isinstance(node, ast.ExceptHandler) and node.name:
                out.setdefault(node.name, []).append(Binding(node.name, node, None, "except"))
            elif isinstance(node, ast.arg):
                out.setdefault(node.arg, []).append(Binding(node.arg, node, None, "param"))
            elif (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and isinstance(root := _root_name(node.value.func.value), ast.Name)
                and root.id not in self.aliases
            ):  # rows.append(x), cfg.read(path): the object now holds what the call put in it
                bind(root, node, node.value, "mutate")
        return out

    # --- control context ----------------------------------------------------------------------------

    def context(self, node: ast.AST) -> Context:
        """What decides whether `node` runs, up to its enclosing function or module."""
        if id(node) not in self._contexts:
            self._contexts[id(node)] = self._context(node)
        return self._contexts[id(node)]

    def _context(self, node: ast.AST) -> Context:
        guards: list[ast.AST] = []
        loops: list[ast.AST] = []
        handler = final = None
        child, parent = node, self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.If | ast.While | ast.IfExp) and child is not parent.test:
                if not _is_main_guard(parent.test):
                    guards.append(parent.test)
                if isinstance(parent, ast.While):
                    loops.append(parent.test)
            elif isinstance(parent, ast.For | ast.AsyncFor) and child is not parent.iter:
                guards.append(parent.iter)
                loops.append(parent.iter)
            elif isinstance(parent, ast.BoolOp):
                guards.extend(parent.values[: next(i for i, v in enumerate(parent.values) if v is child)])
            elif isinstance(parent, COMPREHENSIONS) and not isinstance(child, ast.comprehension):
                guards.extend(x for g in parent.generators for x in (g.iter, *g.ifs))
                loops.extend(g.iter for g in parent.generators)
            elif isinstance(parent, ast.match_case):
                guards.append(self.parents[parent].subject)
            elif isinstance(parent, ast.ExceptHandler):
                handler = handler or parent
                guards.extend(self.parents[parent].body)  # it runs when the try body raised
            elif (
                isinstance(parent, ast.Try | ast.TryStar)
                and final is None
                and _in_block(child, parent.finalbody)
            ):
                final = parent
            guards.extend(self._exit_guards(child))
            if isinstance(parent, SCOPES):
                break
            child, parent = parent, self.parents.get(parent)
        return Context(guards, loops, handler, final)

    def _exit_guards(self, child: ast.AST) -> tuple[ast.AST, ...]:
        # Earlier statements that may leave the block decide whether `child` runs at all:
        # `if not path.exists(): return 0.0` guards everything after it. In a try body with handlers,
        # any earlier statement may raise into the handler: `wb = load(p); valid = True` depends on
        # the workbook loading, and so does what the handler does instead.
        if self._guards_before is None:
            self._guards_before = {}
            for node in self.nodes:
                catching = isinstance(node, ast.Try | ast.TryStar) and bool(node.handlers)
                for name in ("body", "orelse", "finalbody"):
                    block = getattr(node, name, None)
                    before: tuple[ast.AST, ...] = ()
                    for stmt in (
                        block if isinstance(block, list) else ()
                    ):  # Lambda/IfExp bodies are expressions
                        self._guards_before[id(stmt)] = before
                        if (
                            (catching and name == "body" and not isinstance(stmt, DEFS))
                            or isinstance(stmt, ast.Assert)
                            or (not isinstance(stmt, (*DEFS, ast.Return, ast.Raise)) and self.may_exit(stmt))
                        ):
                            before = (*before, stmt)

        return self._guards_before.get(id(child), ()) if isinstance(child, ast.stmt) else ()

    def may_exit(self, stmt: ast.AST) -> bool:
        """Can running `stmt` leave its block early (return, raise, break, continue, sys.exit)?"""
        if self._exits is None:
            self._exits = {}
            for node in reversed(self.nodes):  # ast.walk is breadth-first: children come later
                if isinstance(node, DEFS):
                    self._exits[id(node)] = False
                    continue
                self._exits[id(node)] = (
                    isinstance(node, ast.Return | ast.Raise | ast.Break | ast.Continue)
                    or (isinstance(node, ast.Call) and self.qualname(node.func) in EXIT_CALLS)
                    or any(self._exits.get(id(c), False) for c in kids(node))
                )
        return self._exits.get(id(stmt), False)

    def scope_of(self, node: ast.AST) -> ast.AST:
        """The function, lambda, class or module whose body holds `node`."""
        node = self.parents.get(node)
        while node is not None and not isinstance(node, SCOPES):
            node = self.parents.get(node)
        return node if node is not None else self.tree

    # --- what code inspects -------------------------------------------------------------------------

    def call_kind(self, call: ast.Call) -> str | None:
        """ "read" (file content, hub request), "list" (a folder listing), "exists" (a probe, or
        metadata that only says a file is there) or None."""
        name = self.call_name(call)
        qual = self.qualname(call.func) or ""
        if self.is_request(call):
            return "read"
        if name in EXISTS_CALLS or name in META_CALLS:
            return "exists"
        if name in LISTING_CALLS:
            return "list"
        if name in READ_CALLS or qual in {"json.load", "sqlite3.connect", "tomllib.load", "pickle.load"}:
            return "read"
        if name == "parse" and XML_PARSERS.search(qual.rsplit(".", 1)[0]):
            return "read"
        return None

    def is_request(self, call: ast.Call) -> bool:
        qual = self.qualname(call.func) or ""
        if qual.startswith("requests.") and qual.rsplit(".", 1)[-1] in REQUEST_METHODS:
            return True
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in REQUEST_METHODS):
            return False
        if isinstance(func.value, ast.Call):  # requests.Session().get(...)
            return (self.qualname(func.value.func) or "").lower() == "requests.session"
        return isinstance(func.value, ast.Name) and func.value.id in self.sessions

    def _session_names(self) -> set[str]:
        return {
            name
            for name, binds in self.bindings.items()
            for b in binds
            if isinstance(b.value, ast.Call)
            and (self.qualname(b.value.func) or "").lower() == "requests.session"
        }

    def read_path(self, call: ast.Call) -> ast.AST | None:
        """The expression naming the path a read/list/probe call looks at, if there is one:
        the receiver of `p.read_text()`, the argument of `open(p)` / `os.path.getsize(p)`."""
        func = call.func
        if isinstance(func, ast.Attribute):
            base = _root_name(func.value)
            module = isinstance(base, ast.Name) and base.id in self.aliases and base.id not in self.rebound
            if not module and (func.attr in PATH_METHODS or not call.args):
                return func.value
        if call.args:
            return call.args[0]
        return next(
            (k.value for k in call.keywords if k.arg in {"file", "filename", "path", "fp", "filepath"}), None
        )

    def nondet_source(self, node: ast.AST) -> str | None:
        """Why `node` reads something other than the state and the task (environment, argv, clock,
        randomness, process, host), or None."""
        if isinstance(node, ast.Call):
            qual = self.qualname(node.func) or ""
            if qual in {"os.getenv", "os.environ.get", "environ.get", "getenv", "os.environb.get"}:
                key = node.args[0] if node.args else None
                return None if _allowed_env(key) else f"reads the environment ({_shown(key)})"
            if qual == "input" and "input" in self.functions:
                return None
            if NONDET_CALLS.match(qual) or (NO_ARG_CLOCK.match(qual) and not node.args):
                return f"calls `{qual}`"
            if qual == "time.strftime" and len(node.args) < 2:
                return "calls `time.strftime` on the current time"
            return None
        if isinstance(node, ast.Subscript) and self.qualname(node.value) in {"os.environ", "environ"}:
            return None if _allowed_env(node.slice) else f"reads the environment ({_shown(node.slice)})"
        if isinstance(node, ast.Attribute | ast.Name) and isinstance(node.ctx, ast.Load):
            qual = self.qualname(node)
            if qual not in NONDET_ATTRS or (isinstance(node, ast.Name) and node.id in self.bindings):
                return None
            parent = self.parents.get(node)
            if qual in {"os.environ", "environ"} and (
                isinstance(parent, ast.Subscript)
                and parent.value is node
                or isinstance(parent, ast.Attribute)
                and parent.attr == "get"
            ):
                return None  # the subscript or .get call decides
            if isinstance(parent, ast.Attribute) and self.qualname(parent) in NONDET_ATTRS:
                return None
            return f"reads `{qual}`"
        return None

    def returns(self, fn: ast.AST) -> list[ast.Return | ast.Yield | ast.YieldFrom]:
        """The return and yield points of a function (not of functions nested in it)."""
        if self._returns is None:
            self._returns = {}
            for node in self.nodes:
                if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom):
                    self._returns.setdefault(id(self.scope_of(node)), []).append(node)
        return self._returns.get(id(fn), [])


def _allowed_env(key: ast.AST | None) -> bool:
    return isinstance(key, ast.Constant) and key.value in ALLOWED_ENV


def _shown(node: ast.AST | None) -> str:
    return ast.unparse(node)[:40] if node is not None else "all of it"


def _root_name(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node


def _in_block(child: ast.AST, block: list) -> bool:
    return any(stmt is child for stmt in block)


def _target_names(target: ast.AST):
    """Names a binding target rebinds; `book[key] = ...` changes `book` (but not `key`)."""
    if isinstance(target, ast.Tuple | ast.List):
        for elt in target.elts:
            yield from _target_names(elt)
        return
    while isinstance(target, ast.Subscript | ast.Attribute | ast.Starred):
        target = target.value
    if isinstance(target, ast.Name):
        yield target.id


def _is_main_guard(test: ast.AST) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
