"""Abstract runs: one in-order interpretation of a function or module body (values.py starts them).

A run keeps a value set per name: `if` with a constant test takes one branch, otherwise both and
joins them; loops and handlers make what they assign unknown. It records the value printed by each
`REWARD:` call, the values each function returns, and the names' values where each `try` starts. In
*strict* mode a run follows one path only and stops at the first test it cannot decide, and records
the credit it reaches (see `Values.error_credits`).
"""

from __future__ import annotations

import ast
from typing import Protocol

from tasks.scan.call_kinds import EXIT_CALLS
from tasks.scan.file_index import FileIndex
from tasks.scan.syntax import DEFS, SCOPES, walk, walk_local
from tasks.scan.value_sets import TOP, Env, Frame, Vals, binop, join, join_env, lift, positive, truth


class Evaluator(Protocol):
    """What a run asks of the file's evaluator (values.Values)."""

    facts: FileIndex
    print_vals: dict[int, Vals]
    try_env: dict[int, Env]

    def fold(self, node: ast.AST | None, frame: Frame | None = None) -> Vals: ...

    def lookup(self, name: str, frame: Frame) -> Vals: ...

    def local_names(self, scope: ast.AST) -> frozenset: ...

    def prints_in(self, stmt: ast.stmt) -> list[tuple[ast.Call, ast.expr | None, float | None]]: ...

    def printed(self, value: ast.expr | None, lit: float | None, frame: Frame) -> Vals: ...


class Run:
    """One abstract run through a scope's statements (see the module docstring)."""

    def __init__(
        self,
        values: Evaluator,
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
                current = self.v.lookup(s.target.id, Frame(env, self.frame.local))
                fn = binop(s.op)
                inc = self.fold(s.value, env)
                env[s.target.id] = lift(fn, [current, inc]) if fn else TOP
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
                return join_env(self.block(s.body, dict(env)), self.block(s.orelse, dict(env)))
            return self.block(s.body if test else s.orelse, dict(env))
        if isinstance(s, ast.For | ast.AsyncFor | ast.While):
            if self.strict:
                return None
            if isinstance(s, ast.While) and truth(self.fold(s.test, env)) is False:
                return self.block(s.orelse, env)
            entry = self._forget(env, self._assigned([s]))
            end = self.block(s.body, dict(entry))
            return self.block(s.orelse, join_env(entry, end))
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
                self.v.try_env[id(s)] = join_env(self.v.try_env.get(id(s)), env)
            body_end = self.block(s.body, dict(env))
            start = self._forget(env, self._assigned(s.body))
            ends = [
                self.block(h.body, self._forget(start, {h.name} if h.name else set())) for h in s.handlers
            ]
            end = join_env(self.block(s.orelse, body_end) if body_end is not None else None, *ends)
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
        if isinstance(s, DEFS):
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
            return join_env(*ends) if _irrefutable(s.cases[-1]) else join_env(entry, *ends)
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


def _block_of(parent: ast.AST, child: ast.AST) -> list | None:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(parent, name, None)
        if isinstance(block, list) and any(s is child for s in block):
            return block
    return None


def _root(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        node = node.value
    return node


def scope_locals(facts: FileIndex) -> dict[int, frozenset]:
    """The names each function (or the module) binds in its own body, by id of the scope: a run
    treats them as unknown until it assigns them."""
    found: dict[int, set] = {}
    for node in facts.nodes:
        names: list[str] = []
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names = [node.id]
        elif isinstance(node, DEFS):
            names = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names = [node.name]
        elif isinstance(node, ast.arg):
            found.setdefault(id(facts.scope_of(facts.parents[node])), set()).add(node.arg)
            continue
        if names:
            found.setdefault(id(facts.scope_of(node)), set()).update(names)
    local = {k: frozenset(v) for k, v in found.items()}
    local.setdefault(-1, frozenset())
    return local
