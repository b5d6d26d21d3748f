"""The order of output along the main code's paths (the reward_line rule, reward_line.py): after a
REWARD line no other REWARD line and no other stdout output may follow on the same path, and a
REWARD line in a loop must leave it. The module body is followed statement by statement; the local
functions it calls are summarised once each (may they write to stdout, and do they return with the
REWARD line printed or not).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.call_kinds import EXIT_CALLS
from tasks.scan.credit import Facts
from tasks.scan.syntax import DEFS, kids

STDOUT_CALLS = {"print", "sys.stdout.write", "sys.stdout.writelines"}


class RewardOrder:
    """Paths through the main code, each in one of two states: REWARD line printed or not yet."""

    def __init__(self, facts: Facts) -> None:
        self.f = facts
        self.rewards = {id(c) for c, _, _ in facts.reward_prints}
        self.summaries: dict[int, tuple[bool, frozenset]] = {}
        self.busy: set[int] = set()
        self.found: dict[int, Finding] = {}
        self.breaks: list[set] = []  # per enclosing loop: states leaving it by `break`
        self.continues: list[set] = []  # ... and starting its next iteration by `continue`
        self.returns: set | None = None  # states a summarised function returns in
        self.outputs: set[int] | None = None

    def run(self) -> Iterator[Finding]:
        self.block(self.f.tree.body, {False})
        yield from self.found.values()

    def report(self, node: ast.AST, what: str) -> None:
        if id(node) not in self.found:
            self.found[id(node)] = Finding(
                rule="reward_line",
                line=getattr(node, "lineno", 1),
                message=f"{what} after a REWARD line on the same path: the REWARD line must be "
                "printed once, last (leave right after an early `REWARD: 0.0`)",
            )

    def summary(self, fn: ast.AST) -> tuple[bool, frozenset]:
        """(may write to stdout, the states it may return in when entered before any REWARD line)."""
        if id(fn) in self.summaries:
            return self.summaries[id(fn)]
        if id(fn) in self.busy:
            return False, frozenset({False})
        self.busy.add(id(fn))
        saved, self.returns = self.returns, set()
        loops, self.breaks, self.continues = (self.breaks, self.continues), [], []
        out = self.block(fn.body, {False})
        self.breaks, self.continues = loops
        result = (self._outputs(fn), frozenset(out | self.returns))
        self.returns = saved
        self.busy.discard(id(fn))
        self.summaries[id(fn)] = result
        return result

    def _outputs(self, fn: ast.AST) -> bool:
        """Does `fn` (or a local function it calls) write to stdout?"""
        if self.outputs is None:
            direct: set[int] = set()
            calls: dict[int, set[int]] = {}
            for node in self.f.nodes:
                if not isinstance(node, ast.Call):
                    continue
                scope = id(self.f.scope_of(node))
                if id(node) in self.rewards or self._stdout(node):
                    direct.add(scope)
                elif (callee := self._callee(node)) is not None:
                    calls.setdefault(scope, set()).add(id(callee))
            self.outputs = set(direct)
            changed = True
            while changed:
                changed = False
                for caller, callees in calls.items():
                    if caller not in self.outputs and callees & self.outputs:
                        self.outputs.add(caller)
                        changed = True
        return id(fn) in self.outputs

    def _callee(self, call: ast.Call) -> ast.AST | None:
        if isinstance(call.func, ast.Name) and len(self.f.functions.get(call.func.id, [])) == 1:
            return self.f.functions[call.func.id][0]
        return None

    def _stdout(self, call: ast.Call) -> bool:
        qual = self.f.qualname(call.func) or ""
        file = next((k.value for k in call.keywords if k.arg == "file"), None)
        return qual in STDOUT_CALLS and (file is None or self.f.qualname(file) == "sys.stdout")

    def events(self, node: ast.AST, state: set) -> set:
        for sub in _expr_walk(node):
            if not isinstance(sub, ast.Call) or not state:
                continue
            if id(sub) in self.rewards or self._stdout(sub):
                if True in state:
                    self.report(
                        sub, "prints a REWARD line" if id(sub) in self.rewards else "writes to stdout"
                    )
                if id(sub) in self.rewards:
                    state = {True}
                continue
            callee = self._callee(sub)
            if callee is not None:
                outputs, outs = self.summary(callee)
                if outputs and True in state:
                    self.report(sub, f"calls `{callee.name}`, which writes to stdout,")
                state = ({True} if True in state and outs else set()) | (
                    set(outs) if False in state else set()
                )
            elif self.f.qualname(sub.func) in EXIT_CALLS:
                state = set()
        return state

    def block(self, stmts: list[ast.stmt], state: set) -> set:
        for s in stmts:
            if not state:
                return state
            state = self.stmt(s, state)
        return state

    def stmt(self, s: ast.stmt, state: set) -> set:
        if isinstance(s, DEFS):
            return state
        if isinstance(s, ast.If):
            state = self.events(s.test, state)
            return self.block(s.body, set(state)) | self.block(s.orelse, set(state))
        if isinstance(s, ast.For | ast.AsyncFor | ast.While):
            state = self.events(s.iter if not isinstance(s, ast.While) else s.test, state)
            self.breaks.append(set())
            self.continues.append(set())
            first = self.block(s.body, set(state))  # a second pass sees what the first one printed
            second = self.block(s.body, state | first | self.continues[-1])
            broke, went_on = self.breaks.pop(), self.continues.pop()
            return self.block(s.orelse, state | first | second | went_on) | broke
        if isinstance(s, ast.With | ast.AsyncWith):
            for item in s.items:
                state = self.events(item.context_expr, state)
            return self.block(s.body, state)
        if isinstance(s, ast.Try | ast.TryStar):
            body = self.block(s.body, set(state))
            emitted = {True} if any(id(n) in self.rewards for n in _header_walk(s.body)) else set()
            start = state | body | emitted
            ends = body if not s.orelse else self.block(s.orelse, body)
            for h in s.handlers:
                ends = ends | self.block(h.body, set(start))
            if s.finalbody:
                after = self.block(s.finalbody, ends or set(start))
                return after if ends else set()
            return ends
        if isinstance(s, ast.Match):
            state = self.events(s.subject, state)
            out = set(state)
            for case in s.cases:
                out |= self.block(case.body, set(state))
            return out
        state = self.events(s, state)
        if isinstance(s, ast.Return):
            if self.returns is not None:
                self.returns |= state
            return set()
        if isinstance(s, ast.Break | ast.Continue):
            loops = self.breaks if isinstance(s, ast.Break) else self.continues
            if loops:
                loops[-1] |= state
            return set()
        if isinstance(s, ast.Raise):
            return set()
        return state


def _expr_walk(node: ast.AST) -> list[ast.AST]:
    """The nodes of one simple statement or header expression in evaluation order (children, then
    the node: a call's arguments come before the call), not entering lambdas or definitions."""
    found: list[ast.AST] = []
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    skip = ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    while stack:
        cur, expanded = stack.pop()
        if expanded:
            found.append(cur)
            continue
        if isinstance(cur, skip):
            continue
        stack.append((cur, True))
        stack.extend((c, False) for c in reversed(kids(cur)))
    return found


def _header_walk(stmts: list[ast.AST]):
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            c
            for c in kids(node)
            if not isinstance(c, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        )
