"""What the reward scanner knows about one parsed reward.py, computed once per file: import aliases,
functions, name bindings, control context and what code inspects. tasks/scan_credit.py adds where
credit is given; the rules (tasks/scan_rules.py, tasks/scan_access.py) read both.

The analysis is deliberately name-based and flow-insensitive (a name means the same thing everywhere
in the file): reward scripts are small, single-purpose files, and a heuristic that errs towards
"this name may depend on the state" keeps legitimate rewards clean. Two questions drive it:

- *What decides whether a statement runs?* (`context`): enclosing if/while/for tests, earlier
  statements in the same block that may exit (`if not path.exists(): print("REWARD: 0.0"); return`),
  and whether it sits in an `except` handler.
- *What does an expression inspect?* (`inspect`): file content (reads, listings, hub requests) and
  existence probes, with their polarity (`not p.exists()` is an absence check), followed through local
  functions and through the names it uses (each name inherits what its bindings inspect, including the
  tests that guard the binding: `ok = False` inside `if row.value is None` depends on the sheet)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "os.abort"}
EXISTS_CALLS = {"exists", "isfile", "isdir", "lexists", "islink", "is_file", "is_dir", "is_symlink"}
GLOB_CALLS = {"glob", "iglob", "rglob"}
READ_CALLS = {
    "open", "read_text", "read_bytes", "load_workbook", "Document", "Presentation", "PdfReader",
    "PdfFileReader", "ZipFile", "iterdir", "listdir", "scandir", "walk", "stat", "lstat", "getsize",
    "getmtime", "read_csv", "read_excel",
}  # fmt: skip
XML_PARSERS = re.compile(r"ElementTree|etree|minidom|^ET$|^ET\.")
REQUEST_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "request"}
WRAPPERS = {"list", "sorted", "tuple", "set"}  # transparent around a glob result
TRUTH_CALLS = {"bool", "len", "any", "all"}


@dataclass(frozen=True)
class Inspection:
    """What some code looks at: file content / hub state, and existence probes by polarity."""

    reads: bool = False
    exists_pos: bool = False
    exists_neg: bool = False

    def __or__(self, other: Inspection) -> Inspection:
        return Inspection(self.reads or other.reads, self.exists_pos or other.exists_pos,
                          self.exists_neg or other.exists_neg)  # fmt: skip

    def flipped(self) -> Inspection:
        return Inspection(self.reads, self.exists_neg, self.exists_pos)

    @property
    def existence_only(self) -> bool:
        # Presence *and* absence together is a move/delete check (files sorted into folders: present
        # in the target, gone from the root), which the mere creation of a file cannot satisfy.
        return (self.exists_pos or self.exists_neg) and not self.reads and not (self.exists_pos and self.exists_neg)


NOTHING = Inspection()


@dataclass
class Binding:
    """One place a name gets a value; `sources` are the value plus what decides the binding runs."""

    name: str
    node: ast.AST
    value: ast.expr | None
    kind: str  # assign | aug | loop | with | param | walrus | except
    sources: list[ast.AST] = field(default_factory=list)


@dataclass
class Context:
    """What decides whether a node runs: tests and exits (`guards`), the loops around it (`loops`: the
    iterated expressions, or the while test) and the except handler it sits in, if any."""

    guards: list[ast.AST]
    loops: list[ast.AST]
    handler: ast.ExceptHandler | None

    @property
    def looped(self) -> bool:
        return bool(self.loops)

    @property
    def conditional(self) -> bool:
        return bool(self.guards) or self.looped


def walk_local(nodes: list[ast.AST]):
    """ast.walk over `nodes` without entering nested function or class definitions."""
    stack = list(nodes)
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(c for c in ast.iter_child_nodes(cur) if not isinstance(c, DEFS))


class TreeFacts:
    """Parents, import aliases, functions, bindings, control context and inspections of a tree."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.nodes = list(ast.walk(tree))  # every rule walks the whole file; walk it once
        self._contexts: dict[int, Context] = {}
        self._guards_before: dict[int, tuple[ast.AST, ...]] | None = None
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.aliases = self._aliases()
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in self.nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(node.name, []).append(node)
        self.bindings = self._bindings()
        self.sessions = self._session_names()
        self.glob_names = {name for name, binds in self.bindings.items()
                           if all(b.value is not None and self._is_glob_call(b.value) for b in binds)}  # fmt: skip
        self._summaries: dict[int, tuple[Inspection, frozenset, frozenset]] = {}
        self.fn_insp: dict[str, Inspection] = {}
        self.name_insp: dict[str, Inspection] = {}
        self._solve()

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
        return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None

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
        handler = None
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
            elif isinstance(parent, ast.ExceptHandler) and handler is None:
                handler = parent
            guards.extend(self._exit_guards(child))
            if isinstance(parent, SCOPES):
                break
            child, parent = parent, self.parents.get(parent)
        return Context(guards, loops, handler)

    def _exit_guards(self, child: ast.AST) -> tuple[ast.AST, ...]:
        # Earlier statements that may leave the block decide whether `child` runs at all:
        # `if not path.exists(): return 0.0` guards everything after it.
        if self._guards_before is None:
            self._guards_before = {}
            for node in self.nodes:
                for name in ("body", "orelse", "finalbody"):
                    block = getattr(node, name, None)
                    before: tuple[ast.AST, ...] = ()
                    for stmt in block if isinstance(block, list) else ():  # Lambda/IfExp bodies are expressions
                        self._guards_before[id(stmt)] = before
                        if isinstance(stmt, ast.Assert) or (not isinstance(stmt, (*DEFS, ast.Return, ast.Raise))
                                                            and self.may_exit(stmt)):  # fmt: skip
                            before = (*before, stmt)
        return self._guards_before.get(id(child), ()) if isinstance(child, ast.stmt) else ()

    def may_exit(self, stmt: ast.AST) -> bool:
        for node in walk_local([stmt]):
            if isinstance(node, ast.Return | ast.Raise | ast.Break | ast.Continue):
                return True
            if isinstance(node, ast.Call) and self.qualname(node.func) in EXIT_CALLS:
                return True
        return False

    # --- what code inspects -------------------------------------------------------------------------

    def call_kind(self, call: ast.Call) -> str | None:
        """"read" (file content, listing, hub request), "exists" (probe) or None."""
        name = self.call_name(call)
        qual = self.qualname(call.func) or ""
        if self.is_request(call):
            return "read"
        if name in EXISTS_CALLS:
            return "exists"
        if name in GLOB_CALLS:
            # "is there a match?" is an existence probe; iterating the matches reads a listing
            return "exists" if self._truth_context(call) else "read"
        if name in READ_CALLS or qual in {"json.load", "sqlite3.connect"}:
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
        return {name for name, binds in self.bindings.items() for b in binds
                if isinstance(b.value, ast.Call) and (self.qualname(b.value.func) or "").lower() == "requests.session"}  # fmt: skip

    def _is_glob_call(self, node: ast.AST) -> bool:
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in WRAPPERS and node.args:
            node = node.args[0]
        return isinstance(node, ast.Call) and self.call_name(node) in GLOB_CALLS

    def _truth_context(self, node: ast.AST) -> bool:
        parent = self.parents.get(node)
        while isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in WRAPPERS:
            node, parent = parent, self.parents.get(parent)
        if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is node:
            return True
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in TRUTH_CALLS:
            return True
        return isinstance(parent, ast.BoolOp | ast.Assign | ast.NamedExpr) or \
            (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not))  # fmt: skip

    def inspect(self, *nodes: ast.AST) -> Inspection:
        """What the given code looks at, through local functions and the names it reads."""
        base, names, calls = self._summary(nodes)
        result = base
        for name in names:
            result |= self.name_insp.get(name, NOTHING)
        for fn, negated in calls:
            found = self.fn_insp.get(fn, NOTHING)
            result |= found.flipped() if negated else found
        return result

    def _summary(self, nodes: tuple[ast.AST, ...]) -> tuple[Inspection, frozenset, frozenset]:
        """One walk of `nodes`: what they inspect directly, the names they read, the local functions
        they call (with polarity). Cached: the fixed point re-inspects the same code many times."""
        if len(nodes) != 1:
            base, names, calls = NOTHING, frozenset(), frozenset()
            for node in nodes:  # per node, so a long run of guards is walked once, not once per user
                b, n, c = self._summary((node,))
                base, names, calls = base | b, names | n, calls | c
            return base, names, calls
        key = id(nodes[0])
        if key in self._summaries:
            return self._summaries[key]
        base, names, calls = NOTHING, set(), set()
        stack = [(n, False) for n in nodes if not isinstance(n, DEFS)]
        while stack:
            node, negated = stack.pop()
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                stack.append((node.operand, not negated))
                continue
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
                calls.add((node.func.id, negated))
            elif isinstance(node, ast.Call) and (kind := self.call_kind(node)):
                base |= _probe(negated) if kind == "exists" else Inspection(reads=True)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id in self.glob_names and self._truth_context(node):
                    base |= _probe(negated)
                else:
                    names.add(node.id)
            stack.extend((c, negated) for c in ast.iter_child_nodes(node) if not isinstance(c, DEFS))
        self._summaries[key] = result = (base, frozenset(names), frozenset(calls))
        return result

    def _solve(self) -> None:
        # Functions and names feed each other (x = helper(); def helper(): return wb[...]): iterate to
        # a fixed point. Inspections only ever grow, so this terminates; the cap is a safety net.
        for _ in range(50):
            changed = False
            for name, defs in self.functions.items():
                new = NOTHING
                for fn in defs:
                    new |= self.inspect(*fn.body)
                changed |= new != self.fn_insp.get(name, NOTHING)
                self.fn_insp[name] = new
            for name, binds in self.bindings.items():
                if name in self.glob_names:
                    new = Inspection(reads=True)  # used other than as a truth value, it is a listing
                    for b in binds:
                        new |= self.inspect(*b.sources[1:])
                else:
                    new = NOTHING
                    for b in binds:
                        new |= self.inspect(*b.sources)
                changed |= new != self.name_insp.get(name, NOTHING)
                self.name_insp[name] = new
            if not changed:
                return

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


def _probe(negated: bool) -> Inspection:
    return Inspection(exists_neg=True) if negated else Inspection(exists_pos=True)


def _is_main_guard(test: ast.AST) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
