"""What the reward scanner knows about one parsed reward.py: the facts every rule in tasks/scan_rules.py
reads, computed once per file.

The analysis is deliberately name-based and flow-insensitive (a name means the same thing everywhere
in the file): reward scripts are small, single-purpose files, and a heuristic that errs towards
"this name may depend on the state" keeps legitimate rewards clean. Three questions drive it:

- *What decides whether a statement runs?* (`context`): enclosing if/while/for tests, earlier
  statements in the same block that may exit (`if not path.exists(): print("REWARD: 0.0"); return`),
  and whether it sits in an `except` handler.
- *What does an expression inspect?* (`inspect`): file content (reads, listings, hub requests) and
  existence probes, with their polarity (`not p.exists()` is an absence check), followed through local
  functions and through the names it uses (each name inherits what its bindings inspect, including the
  tests that guard the binding: `ok = False` inside `if row.value is None` depends on the sheet).
- *Where is credit given?* (`credits`): additions to a score-like variable, positive score
  assignments, and `REWARD:` prints.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
SCORE_RE = re.compile(r"score|reward|earned|points|credit", re.I)
NOT_SCORE_RE = re.compile(r"max|possible|weight|total", re.I)  # denominators are not credit
REWARD_TEXT_RE = re.compile(r"^\s*REWARD\s*:\s*(\S*)")
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
CONTAINERS = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.JoinedStr)


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
    guards: list[ast.AST]
    looped: bool
    handler: ast.ExceptHandler | None

    @property
    def conditional(self) -> bool:
        return bool(self.guards) or self.looped


@dataclass
class Credit:
    """A place where score is given: `score += v`, `score = v` (v > 0) or a positive REWARD print."""

    node: ast.AST
    kind: str  # increment | assign | print
    target: str | None
    value: ast.expr | None
    literal: float | None


def number(node: ast.AST | None) -> float | None:
    """The numeric value of a literal (True counts as 1), seen through str()/float()/round()."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and \
            node.func.id in {"str", "float", "int", "round", "bool"}:  # fmt: skip
        node = node.args[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, str):
        return float(node.value)
    return None


def names_in(node: ast.AST | None, *, skip_divisors: bool = False) -> set[str]:
    """Names read by an expression (not called functions; optionally not what it divides by)."""
    found: set[str] = set()
    stack = [node] if node is not None else []
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Name) and isinstance(cur.ctx, ast.Load):
            found.add(cur.id)
        elif isinstance(cur, ast.Call):
            stack.extend([*cur.args, *(k.value for k in cur.keywords)])
            if isinstance(cur.func, ast.Attribute):
                stack.append(cur.func.value)
            continue
        elif skip_divisors and isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Div):
            stack.append(cur.left)
            continue
        stack.extend(ast.iter_child_nodes(cur))
    return found


def walk_local(nodes: list[ast.AST]):
    """ast.walk over `nodes` without entering nested function or class definitions."""
    stack = list(nodes)
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(c for c in ast.iter_child_nodes(cur) if not isinstance(c, DEFS))


class Facts:
    """Parents, import aliases, functions, bindings, score names, REWARD prints and credits of a tree."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.aliases = self._aliases()
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(node.name, []).append(node)
        self.bindings = self._bindings()
        self.sessions = self._session_names()
        self.glob_names = {name for name, binds in self.bindings.items()
                           if all(b.value is not None and self._is_glob_call(b.value) for b in binds)}  # fmt: skip
        self.fn_insp: dict[str, Inspection] = {}
        self.name_insp: dict[str, Inspection] = {}
        self._solve()
        self.reward_prints = [(call, value, lit) for call in ast.walk(tree) if isinstance(call, ast.Call)
                              for value, lit in [self.reward_value(call)] if value is not None or lit is not None]  # fmt: skip
        self.score_names = self._score_names()
        self.credits = self._credits()
        self.components = [fn for defs in self.functions.values() for fn in defs
                           if any(self._decorator_name(d) == "component" for d in fn.decorator_list)]  # fmt: skip

    # --- names --------------------------------------------------------------------------------------

    def _aliases(self) -> dict[str, str]:
        aliases: dict[str, str] = {}
        for node in ast.walk(self.tree):
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

    def _decorator_name(self, deco: ast.expr) -> str | None:
        target = deco.func if isinstance(deco, ast.Call) else deco
        qual = self.qualname(target)
        return qual.rsplit(".", 1)[-1] if qual else None

    def _bindings(self) -> dict[str, list[Binding]]:
        out: dict[str, list[Binding]] = {}

        def bind(target: ast.AST, node: ast.AST, value: ast.expr | None, kind: str) -> None:
            for name in _target_names(target):
                sources = [*([value] if value is not None else []), *self.context(node).guards]
                out.setdefault(name, []).append(Binding(name, node, value, kind, sources))

        for node in ast.walk(self.tree):
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

    def constant_value(self, name: str) -> float | None:
        """The value of a name bound only to numeric literals, unconditionally; None otherwise."""
        binds = self.bindings.get(name, [])
        if not binds or any(b.kind != "assign" or number(b.value) is None or self.context(b.node).conditional
                            for b in binds):  # fmt: skip
            return None
        last = max(binds, key=lambda b: (b.node.lineno, b.node.col_offset))
        return number(last.value)

    # --- control context ----------------------------------------------------------------------------

    def context(self, node: ast.AST) -> Context:
        """What decides whether `node` runs, up to its enclosing function or module."""
        guards: list[ast.AST] = []
        looped, handler = False, None
        child, parent = node, self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.If | ast.While | ast.IfExp) and child is not parent.test:
                if not _is_main_guard(parent.test):
                    guards.append(parent.test)
                looped = looped or isinstance(parent, ast.While)
            elif isinstance(parent, ast.For | ast.AsyncFor) and child is not parent.iter:
                guards.append(parent.iter)
                looped = True
            elif isinstance(parent, ast.BoolOp):
                guards.extend(parent.values[: next(i for i, v in enumerate(parent.values) if v is child)])
            elif isinstance(parent, COMPREHENSIONS) and not isinstance(child, ast.comprehension):
                guards.extend(x for g in parent.generators for x in (g.iter, *g.ifs))
                looped = True
            elif isinstance(parent, ast.match_case):
                guards.append(self.parents[parent].subject)
            elif isinstance(parent, ast.ExceptHandler) and handler is None:
                handler = parent
            guards.extend(self._exit_guards(parent, child))
            if isinstance(parent, SCOPES):
                break
            child, parent = parent, self.parents.get(parent)
        return Context(guards, looped, handler)

    def _exit_guards(self, parent: ast.AST, child: ast.AST) -> list[ast.AST]:
        # Earlier statements that may leave the block decide whether `child` runs at all:
        # `if not path.exists(): return 0.0` guards everything after it.
        for name in ("body", "orelse", "finalbody"):
            block = getattr(parent, name, None)
            if isinstance(block, list):
                for i, stmt in enumerate(block):
                    if stmt is child:
                        return [s for s in block[:i] if isinstance(s, ast.Assert) or
                                (not isinstance(s, DEFS) and self.may_exit(s) and not isinstance(s, ast.Return | ast.Raise))]  # fmt: skip
        return []

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
        return isinstance(func, ast.Attribute) and func.attr in REQUEST_METHODS and isinstance(func.value, ast.Name) \
            and func.value.id in self.sessions  # fmt: skip

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
        result = NOTHING
        stack = [(n, False) for n in nodes if not isinstance(n, DEFS)]
        while stack:
            node, negated = stack.pop()
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                stack.append((node.operand, not negated))
                continue
            if isinstance(node, ast.Call):
                result |= self._call_inspection(node, negated)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id in self.glob_names and self._truth_context(node):
                    result |= Inspection(exists_neg=True) if negated else Inspection(exists_pos=True)
                else:
                    result |= self.name_insp.get(node.id, NOTHING)
            stack.extend((c, negated) for c in ast.iter_child_nodes(node) if not isinstance(c, DEFS))
        return result

    def _call_inspection(self, call: ast.Call, negated: bool) -> Inspection:
        if isinstance(call.func, ast.Name) and call.func.id in self.functions:
            found = self.fn_insp.get(call.func.id, NOTHING)
            return found.flipped() if negated else found
        kind = self.call_kind(call)
        if kind == "read":
            return Inspection(reads=True)
        if kind == "exists":
            return Inspection(exists_neg=True) if negated else Inspection(exists_pos=True)
        return NOTHING

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

    # --- credit -------------------------------------------------------------------------------------

    def reward_value(self, call: ast.Call) -> tuple[ast.expr | None, float | None]:
        """For a call printing `REWARD: ...`: (the printed expression, its literal value if any)."""
        qual = self.qualname(call.func)
        if qual not in {"print", "sys.stdout.write"} or not call.args:
            return None, None
        first = call.args[0]
        text = _leading_text(first)
        match = REWARD_TEXT_RE.match(text) if text is not None else None
        if match is None:
            return None, None
        value: ast.expr | None = None
        if len(call.args) > 1:
            value = call.args[1]
        elif isinstance(first, ast.JoinedStr):
            value = next((v.value for v in first.values if isinstance(v, ast.FormattedValue)), None)
        elif isinstance(first, ast.BinOp) and isinstance(first.op, ast.Add | ast.Mod):
            value = first.right.elts[0] if isinstance(first.right, ast.Tuple) and first.right.elts else first.right
        elif isinstance(first, ast.Call) and first.args:  # "REWARD: {}".format(x)
            value = first.args[0]
        if value is None:
            try:
                return None, float(match.group(1))
            except ValueError:
                return None, None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            try:
                return value, float(value.value)
            except ValueError:
                return value, None
        literal = number(value)
        inner = _unwrap(value)
        if literal is None and isinstance(inner, ast.Name):
            literal = self.constant_value(inner.id)  # score = 1.0 ... print(f"REWARD: {score}")
        return value, literal

    def _score_names(self) -> set[str]:
        bound = {n for n, binds in self.bindings.items() if any(b.kind in ("assign", "aug") for b in binds)}
        names = {n for n in bound if SCORE_RE.search(n) and not NOT_SCORE_RE.search(n)
                 and not any(isinstance(b.value, CONTAINERS) for b in self.bindings[n])}  # data, not a score
        frontier = {n for _, value, _ in self.reward_prints for n in names_in(value, skip_divisors=True)}
        # what the printed value is computed from is score too (final = min(pts, 1.0) -> pts)
        while frontier - names:
            names |= frontier
            frontier = {m for n in frontier for b in self.bindings.get(n, []) if b.kind in ("assign", "aug")
                        for m in names_in(b.value, skip_divisors=True)}  # fmt: skip
        return {n for n in names if n in bound or n in self.bindings}

    def _credits(self) -> list[Credit]:
        credits: list[Credit] = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and \
                    isinstance(node.target, ast.Name) and node.target.id in self.score_names:  # fmt: skip
                credits.append(Credit(node, "increment", node.target.id, node.value, number(node.value)))
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in self.score_names:  # fmt: skip
                target, value = node.targets[0].id, node.value
                if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and \
                        isinstance(value.left, ast.Name) and value.left.id == target:  # fmt: skip
                    credits.append(Credit(node, "increment", target, value.right, number(value.right)))
                elif (lit := number(value)) is not None and lit > 0:
                    credits.append(Credit(node, "assign", target, value, lit))
        for call, value, lit in self.reward_prints:
            if lit is not None and lit > 0:
                credits.append(Credit(call, "print", None, value, lit))
        return credits


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


def _unwrap(node: ast.AST | None) -> ast.AST | None:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and \
            node.func.id in {"str", "float", "round", "min", "max"}:  # fmt: skip
        node = node.args[0]
    return node


def _leading_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        if node.values and isinstance(node.values[0], ast.Constant):
            return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
        return None
    if isinstance(node, ast.BinOp):
        return _leading_text(node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _leading_text(node.func.value)
    return None


def _is_main_guard(test: ast.AST) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
