"""The *provenance* of every expression in one parsed reward.py, computed once per file on top of
the syntax facts of file_index.py (aliases, functions, bindings, control context). credit.py adds
where credit is given; the rules read both.

Provenance is a small data-flow analysis. Each expression gets an `Inspection` (inspection.py): a
set of flags saying what it may be computed from:

- `plain` / `hidden`: file content or hub state (a read, a hub GET through `requests`), from a visible
  path, or from a *reference* file: hidden and not an application's own configuration
  (`~/.answers.json`, `Desktop/.ref.csv`; `~/.config/...`, `~/.bashrc` count as plain: they are
  often the task's output), or named like an answer key (`solution.txt`). Paths are resolved by
  path_values.py (constants, `HOME / "x"`, f-strings, `os.path.join`, a helper's parameter at each call);
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
anything built or fetched at run time (run_time_code.py forbids that).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tasks.scan.call_kinds import BUILTIN_NAMES, CONTENT_ATTRS, META_ATTRS, TRUTH_CALLS
from tasks.scan.file_index import FileIndex
from tasks.scan.inspection import HIDDEN, NAMES, NEG, NONDET, OPAQUE, PARAMREAD, PLAIN, POS, READS, Inspection
from tasks.scan.reference_files import is_reference
from tasks.scan.syntax import DEFS, kids
from tasks.scan.values import Values


@dataclass
class _Summary:
    """What one expression inspects, before names and functions are resolved: direct flags, the names
    it reads and local functions it calls (with polarity), and truth tests over sub-expressions whose
    result turns a listing into an existence probe (`len(os.listdir(d)) > 0`)."""

    base: int = 0
    names: set = field(default_factory=set)  # (name, negated)
    calls: set = field(default_factory=set)  # (function, negated, id of the call)
    truths: list = field(default_factory=list)  # (negated, _Summary)


class TreeFacts(FileIndex):
    """FileIndex plus the provenance of every expression, and the file's values (values.py)."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__(tree)
        self.values: Values = Values(self)
        self._sums: dict[tuple[int, bool, bool], _Summary] = {}
        self._call_nodes: dict[int, ast.Call] = {}
        self._arg_bits: dict[int, int] = {}
        self.name_insp: dict[str, Inspection] = {}
        self._solve()

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
