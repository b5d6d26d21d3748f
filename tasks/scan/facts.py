"""What the reward scanner knows about one parsed reward.py, computed once per file: import aliases,
functions, name bindings, control context and the *provenance* of every expression. credit.py adds
where credit is given; the rules (rules.py, access.py, integrity.py) read both.

Provenance is a small data-flow analysis. Each expression gets an `Inspection`: a set of flags saying
what it may be computed from:

- `plain` / `hidden`: file content or hub state (a read, a hub GET through `requests`), from a visible
  path, or from a *reference* file: hidden and not an application's own configuration
  (`~/.answers.json`, `Desktop/.ref.csv`; `~/.config/...`, `~/.bashrc` count as plain: they are
  often the task's output), or named like an answer key (`solution.txt`). Paths are resolved by
  values.py (constants, `HOME / "x"`, f-strings, `os.path.join`, a helper's parameter at each call);
- `names`: a folder listing used as data (the names in it);
- `exists_pos` / `exists_neg`: existence probes and what is only existence in disguise (sizes, mtimes,
  `os.access`, the truth or length of a listing), by polarity (`not p.exists()` is an absence check);
- `opaque`: the result of calling a function value the scan cannot see (a parameter, a table entry);
- `nondet`: the environment, argv, stdin, the clock, randomness, the process or the host.

Flow is followed through names and local functions, to a fixed point. The analysis is name-based and
flow-insensitive (a name means the same thing everywhere in the file, whatever scope binds it) and
field-insensitive (`d[k] = v` and `d.update(v)` make `d` depend on `v`): reward scripts are small,
single-purpose files, and erring towards "this may depend on the state" keeps legitimate rewards
clean. A name inherits what its bindings are computed from *and* the tests that decide whether the
binding runs (`ok = False` inside `if row.value is None` depends on the sheet; in a try body every
earlier statement is such a test, since it may raise). A call of a local
function carries what the function's return values (and the tests guarding them) carry; a call of
a library function or method carries what its receiver and arguments carry.

What it cannot see: aliasing through containers and objects beyond the names above, values that
change with the order of statements (values.py interprets that part), side effects of library
calls on objects passed to them, which file a path names when it is computed from data, and
anything built or fetched at run time (access.py forbids that).
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tasks.scan.values import Values

SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCS = ast.FunctionDef | ast.AsyncFunctionDef
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "os.abort"}
EXISTS_CALLS = {
    "exists",
    "isfile",
    "isdir",
    "lexists",
    "islink",
    "is_file",
    "is_dir",
    "is_symlink",
    "ismount",
}
# metadata that says a file is there (and how big or how old), never what it holds
META_CALLS = {"getsize", "getmtime", "getctime", "getatime", "access", "stat", "lstat", "samefile"}
# (inode, device, link and block counts too: they say which file is there, not what it holds)
META_ATTRS = {"st_size", "st_mtime", "st_ctime", "st_atime", "st_mtime_ns", "st_ctime_ns", "st_atime_ns"} | {
    "st_ino",
    "st_dev",
    "st_nlink",
    "st_blocks",
    "st_blksize",
    "st_rdev",
    "st_birthtime",
    "st_flags",
}
CONTENT_ATTRS = {"st_mode", "st_uid", "st_gid"}  # what a chmod/chown task sets
LISTING_CALLS = {"glob", "iglob", "rglob", "iterdir", "listdir", "scandir", "walk"}
READ_CALLS = {
    "open",
    "read",
    "readlines",
    "read_file",
    "read_text",
    "read_bytes",
    "load_workbook",
    "Document",
    "Presentation",
    "PdfReader",
    "PdfFileReader",
    "ZipFile",
    "TarFile",
    "read_csv",
    "read_excel",
    "readlink",
    "realpath",
    "owner",
    "group",
}
PATH_METHODS = {  # methods whose receiver is the path they look at
    "read_text",
    "read_bytes",
    "open",
    "iterdir",
    "glob",
    "rglob",
    "stat",
    "lstat",
    "exists",
    "is_file",
    "is_dir",
    "is_symlink",
    "readlink",
    "owner",
    "group",
    "samefile",
}
XML_PARSERS = re.compile(r"ElementTree|etree|minidom|^ET$|^ET\.")
REQUEST_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "request"}
TRUTH_CALLS = {"bool", "len", "any", "all"}
BUILTIN_NAMES = frozenset(dir(builtins))

# --- nondeterminism: inputs a grader must not have (DESIGN.md §3.1: the score is a function of the state)
ALLOWED_ENV = {"CUAGYM_HUB_URL", "CUAGYM_SID", "HOME"}  # the hub helper's documented reads; HOME is ~
NONDET_CALLS = re.compile(
    r"^(time\.(time|time_ns|monotonic|monotonic_ns|perf_counter|perf_counter_ns|process_time|"
    r"process_time_ns|thread_time|clock_gettime|clock_gettime_ns)"
    r"|datetime\.(datetime\.)?(now|utcnow|today)|datetime\.date\.today"
    r"|random\.\w+|secrets\.\w+|numpy\.random\.\w+|uuid\.uuid[14]"
    r"|os\.(urandom|getrandom|getpid|getppid|getuid|geteuid|getgid|getegid|getlogin|uname|times|"
    r"cpu_count|getloadavg)"
    r"|socket\.(gethostname|getfqdn)|platform\.\w+|getpass\.getuser|input)$"
)
NO_ARG_CLOCK = re.compile(r"^time\.(localtime|gmtime|ctime|asctime)$")  # with an argument: a conversion
NONDET_ATTRS = {"sys.argv", "sys.orig_argv", "sys.stdin", "os.environ", "os.environb", "environ"}

# --- provenance flags
PLAIN, HIDDEN, NAMES, POS, NEG, OPAQUE, NONDET, PARAMREAD = (1 << i for i in range(8))
READS = PLAIN | HIDDEN
STATE = READS | NAMES | POS | NEG | OPAQUE | PARAMREAD


class Inspection(int):
    """What some code looks at, as flags (see the module docstring); `|` joins two."""

    __slots__ = ()

    def __or__(self, other: int) -> Inspection:
        return Inspection(int(self) | int(other))

    def flipped(self) -> Inspection:
        return Inspection((self & ~(POS | NEG)) | (NEG if self & POS else 0) | (POS if self & NEG else 0))

    reads = property(lambda self: bool(self & (READS | PARAMREAD)))
    hidden = property(lambda self: bool(self & HIDDEN))
    plain = property(lambda self: bool(self & (PLAIN | PARAMREAD)))
    names = property(lambda self: bool(self & NAMES))
    exists_pos = property(lambda self: bool(self & POS))
    exists_neg = property(lambda self: bool(self & NEG))
    opaque = property(lambda self: bool(self & OPAQUE))
    nondet = property(lambda self: bool(self & NONDET))
    state = property(lambda self: bool(self & STATE))  # depends on the state in any way

    @property
    def existence_only(self) -> bool:
        # Only presence: creating an empty (or wrong) file satisfies it. Absence is a delete or move
        # check (gone from the root), which creating files cannot satisfy; presence *and* absence
        # together is a move (present in the target, gone from the source).
        return bool(self & POS) and not self & (READS | NAMES | OPAQUE | PARAMREAD | NEG)


NOTHING = Inspection(0)


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


def kids(node: ast.AST) -> list[ast.AST]:
    """ast.iter_child_nodes, computed once per node (the scan walks the same small tree many times)."""
    try:
        return node._kids
    except AttributeError:
        node._kids = found = list(ast.iter_child_nodes(node))
        return found


def _breadth_first(tree: ast.AST) -> list[ast.AST]:
    """The nodes of `tree` in ast.walk's order (parents before children)."""
    nodes = [tree]
    i = 0
    while i < len(nodes):
        nodes.extend(kids(nodes[i]))
        i += 1
    return nodes


def walk(node: ast.AST):
    """ast.walk through `kids` (depth-first)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(kids(cur))


def walk_local(nodes: list[ast.AST]):
    """ast.walk over `nodes` without entering nested function or class definitions."""
    stack = list(nodes)
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(c for c in kids(cur) if not isinstance(c, DEFS))


@dataclass
class _Summary:
    """What one expression inspects, before names and functions are resolved: direct flags, the names
    it reads and local functions it calls (with polarity), and truth tests over sub-expressions whose
    result turns a listing into an existence probe (`len(os.listdir(d)) > 0`)."""

    base: int = 0
    names: set = field(default_factory=set)  # (name, negated)
    calls: set = field(default_factory=set)  # (function, negated, id of the call)
    truths: list = field(default_factory=list)  # (negated, _Summary)


class TreeFacts:
    """Parents, import aliases, functions, bindings, control context and provenance of a tree."""

    def __init__(self, tree: ast.Module) -> None:
        from tasks.scan.values import Values

        self.tree = tree
        self.nodes = _breadth_first(tree)  # every rule walks the whole file; walk it once
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
        self.values: Values = Values(self)
        self.nondet_sources = [(n, why) for n in self.nodes if (why := self.nondet_source(n))]
        self._nondet_ids = {id(n) for n, _ in self.nondet_sources}
        self._sums: dict[tuple[int, bool, bool], _Summary] = {}
        self._call_nodes: dict[int, ast.Call] = {}
        self._arg_bits: dict[int, int] = {}
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

    # --- provenance ---------------------------------------------------------------------------------

    def inspect(self, *nodes: ast.AST) -> Inspection:
        """What the given code is computed from, through local functions and the names it reads."""
        result = 0
        for node in nodes:
            result |= self._eval(self._summary(node, False, False))
        return Inspection(result)

    def inspect_test(self, *nodes: ast.AST) -> Inspection:
        """Like `inspect`, for code used as a truth test (a guard, an iterated expression): the truth
        or length of a listing is an existence probe."""
        result = 0
        for node in nodes:
            result |= self._eval(self._summary(node, False, True))
        return Inspection(result)

    def decision(self, fn: ast.AST) -> Inspection:
        """What a function's (or lambda's) result is computed from: its returned values and the tests
        deciding which return runs."""
        if isinstance(fn, ast.Lambda):
            return self.inspect(fn.body)
        result = 0
        for ret in self.returns(fn):
            if ret.value is not None:
                result |= self._eval(self._summary(ret.value, False, False))
            result |= self.inspect_test(*self.context(ret).guards)
        return Inspection(result)

    def returns(self, fn: ast.AST) -> list[ast.Return | ast.Yield | ast.YieldFrom]:
        """The return and yield points of a function (not of functions nested in it)."""
        if self._returns is None:
            self._returns = {}
            for node in self.nodes:
                if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom):
                    self._returns.setdefault(id(self.scope_of(node)), []).append(node)
        return self._returns.get(id(fn), [])

    def _eval(self, summary: _Summary) -> int:
        result = summary.base
        for name, negated in summary.names:
            found = self.name_insp.get(name, 0)
            result |= Inspection(found).flipped() if negated else found
        for fn, negated, call in summary.calls:
            found = self.fn_insp.get(fn, 0)
            if found & PARAMREAD:  # def rows(path): ... open(path): the caller's path decides
                found = (found & ~PARAMREAD) | (self._arg_paths(self._call_nodes[call]) or PLAIN)
            result |= Inspection(found).flipped() if negated else found
        for negated, sub in summary.truths:
            inner = self._eval(sub)
            if inner & NAMES and not inner & (READS | OPAQUE | PARAMREAD):
                inner = (inner & ~NAMES) | (NEG if negated else POS)
            result |= inner
        return result

    def _summary(self, root: ast.AST, negated: bool, test: bool) -> _Summary:
        key = (id(root), negated, test)
        if key in self._sums:
            return self._sums[key]
        self._sums[key] = out = _Summary()  # a placeholder breaks cycles through lambdas
        stack = [(root, negated, test)]
        while stack:
            node, neg, truth = stack.pop()
            if isinstance(node, DEFS):
                continue
            if isinstance(node, ast.If) and truth:  # an exit guard: what follows runs when it did not exit
                if any(self.may_exit(b) for b in node.body):
                    stack.append((node.test, not neg, True))
                if any(self.may_exit(b) for b in node.orelse):
                    stack.append((node.test, neg, True))
                continue
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                stack.append((node.operand, not neg, True))
                continue
            if isinstance(node, ast.BoolOp):
                stack.extend((v, neg, truth) for v in node.values)
                continue
            if isinstance(node, ast.Compare) and (sized := _emptiness(node)) is not None:
                stack.append((sized, not neg, True))  # len(x) == 0: the truth of x, negated
                continue
            if truth and not isinstance(node, ast.Compare | ast.BinOp | ast.Constant):
                out.truths.append((neg, self._summary(node, neg, False)))
                continue
            if id(node) in self._nondet_ids:
                out.base |= NONDET
            if isinstance(node, ast.Call):
                fname = self.call_name(node)
                if isinstance(node.func, ast.Name) and fname in TRUTH_CALLS and fname not in self.functions:
                    stack.extend((a, neg, True) for a in node.args)
                    continue
                if isinstance(node.func, ast.Name) and node.func.id in self.functions:
                    self._call_nodes[id(node)] = node
                    out.calls.add((node.func.id, neg, id(node)))
                    stack.extend((a, False, False) for a in [*node.args, *(k.value for k in node.keywords)])
                    continue
                kind = self.call_kind(node)
                if kind == "exists":
                    out.base |= NEG if neg else POS
                elif kind == "list":
                    out.base |= NAMES
                elif kind == "read":
                    out.base |= self._path_class(node)
                elif self._opaque_call(node):
                    out.base |= OPAQUE
            elif isinstance(node, ast.Attribute):
                if node.attr in CONTENT_ATTRS:
                    out.base |= PLAIN
                elif node.attr in META_ATTRS:
                    out.base |= NEG if neg else POS
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                out.names.add((node.id, neg))
            elif isinstance(node, ast.Lambda):
                stack.append((node.body, neg, False))
                continue
            stack.extend((c, neg, False) for c in kids(node))
        return out

    def _opaque_call(self, call: ast.Call) -> bool:
        """Calling a function value the scan cannot see: a parameter, a loop variable, a table entry."""
        func = call.func
        if isinstance(func, ast.Attribute):
            return False
        if isinstance(func, ast.Name):
            name = func.id
            if name in self.functions or name in self.aliases:
                return False
            binds = self.bindings.get(name)
            if not binds:
                return name not in BUILTIN_NAMES
            return not all(
                b.kind == "assign"
                and (
                    isinstance(b.value, ast.Lambda)
                    or (isinstance(b.value, ast.Name) and b.value.id in self.functions)
                )
                for b in binds
            )
        return True

    def _path_class(self, call: ast.Call) -> int:
        if self.is_request(call):
            return PLAIN
        path = self.read_path(call)
        return self._classify(path) if path is not None else PLAIN

    def _classify(self, path: ast.AST) -> int:
        found = self.values.paths(path)
        if found == "param":
            return PARAMREAD
        if found and all(is_reference(p) for p in found):
            return HIDDEN
        return PLAIN

    def _arg_paths(self, call: ast.Call) -> int:
        if id(call) in self._arg_bits:
            return self._arg_bits[id(call)]
        bits = 0
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            found = self.values.paths(arg)
            if found == "param":
                bits |= PARAMREAD
            elif found:
                bits |= HIDDEN if all(is_reference(p) for p in found) else PLAIN
        self._arg_bits[id(call)] = bits
        return bits

    def _solve(self) -> None:
        # Functions and names feed each other (x = helper(); def helper(): return wb[...]): a worklist
        # to a fixed point. Flags only ever grow, so this terminates.
        parts: dict[tuple[str, str], list[_Summary]] = {}
        for name, defs in self.functions.items():
            items = parts.setdefault(("fn", name), [])
            for fn in defs:
                for r in self.returns(fn):
                    if r.value is not None:
                        items.append(self._summary(r.value, False, False))
                    items.extend(self._summary(g, False, True) for g in self.context(r).guards)
        for name, binds in self.bindings.items():
            items = parts.setdefault(("name", name), [])
            for b in binds:
                if b.value is not None:
                    items.append(self._summary(b.value, False, False))
                    items.extend(self._summary(g, False, True) for g in b.sources[1:])
                else:
                    items.extend(self._summary(g, False, True) for g in b.sources)
        deps = {key: [d for d in _deps(items) if d in parts] for key, items in parts.items()}
        tables = {"fn": self.fn_insp, "name": self.name_insp}
        for group in _components(deps):  # strongly connected, dependencies first
            cyclic = len(group) > 1 or group[0] in deps[group[0]]
            for _ in range(50 if cyclic else 1):
                changed = False
                for key in group:
                    new = 0
                    for item in parts[key]:
                        new |= self._eval(item)
                    table = tables[key[0]]
                    if new != table.get(key[1], 0):
                        table[key[1]] = Inspection(new)
                        changed = True
                if not changed:
                    break


def _components(graph: dict) -> list[list]:
    """Tarjan's strongly connected components of `graph` (node -> successors), successors first."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list[list] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                out.append(group)
    return out


def _deps(items: list[_Summary]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    stack = list(items)
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        found.update(("name", n) for n, _ in item.names)
        found.update(("fn", f) for f, _, _ in item.calls)
        stack.extend(sub for _, sub in item.truths)
    return found


APP_DIRS = {
    ".config",
    ".local",
    ".mozilla",
    ".thunderbird",
    ".vscode",
    ".ssh",
    ".gnupg",
    ".pki",
    ".bashrc",
    ".bash_profile",
    ".bash_aliases",
    ".profile",
    ".zshrc",
    ".gitconfig",
    ".vimrc",
    ".inputrc",
    ".npmrc",
    ".themes",
    ".icons",
    ".fonts",
}


ANSWER_RE = re.compile(
    r"(?<![a-z])(answers?|answer[_-]?key|solutions?|expected|golden|gold|ground[_-]?truth|truth|oracle|cheat)"
    r"(?![a-z])",
    re.I,
)


def _home_parts(path: str) -> list[str] | None:
    for prefix in ("/home/user/", "~/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
            break
    else:
        if path.startswith("/"):
            return None
    return [p for p in path.split("/") if p not in ("", ".", "..", "*")]


def is_hidden(path: str) -> bool:
    """A hidden file under the home that is not an application's own configuration: where a setup
    script leaves what the agent is not meant to see (`~/.answers.json`, `Desktop/.ref.csv`)."""
    parts = _home_parts(path)
    if not parts or parts[0] in APP_DIRS:
        return False
    return any(p.startswith(".") for p in parts)


def answer_named(path: str) -> bool:
    """A file whose name says it holds the expected answers (answers, solution, expected, golden)."""
    return bool(ANSWER_RE.search(path.rsplit("/", 1)[-1]))


def is_reference(path: str) -> bool:
    """A path a check should not take its expected values from: hidden, or named like an answer key.
    (A visible answers.docx the agent must fill in is read as output; it is compared with the
    task's parameters, not used as the expected side, so only comparisons make this a finding.)"""
    return is_hidden(path) or answer_named(path)


def _emptiness(node: ast.Compare) -> ast.AST | None:
    """`x` for `len(x) == 0`, `len(x) < 1`, `0 == len(x)`: a test that `x` is empty."""
    if len(node.ops) != 1:
        return None
    left, op, right = node.left, node.ops[0], node.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
        op = {ast.Gt: ast.Lt(), ast.GtE: ast.LtE()}.get(type(op), op)
    if not (
        isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" and left.args
    ):
        return None
    if not (isinstance(right, ast.Constant) and isinstance(right.value, int)):
        return None
    empty = (isinstance(op, ast.Eq | ast.LtE) and right.value == 0) or (
        isinstance(op, ast.Lt) and right.value == 1
    )
    return left.args[0] if empty else None


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
