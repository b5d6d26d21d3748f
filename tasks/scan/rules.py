"""The reward scanner's scoring rules: how credit is given (constant, flags, existence, exceptions,
component count, bounds). Each rule is a function `(Facts) -> Iterator[Finding]`; tasks/scan.py runs
them. Rules about *what the grader may touch* (processes, code, network, paths) live in
tasks/scan_access.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import partial, wraps

from tasks.models import Finding
from tasks.scan_credit import Credit, Facts, names_in, number
from tasks.scan_facts import DEFS, walk_local

WEIGHTS_RE = re.compile(r"weight|point|credit|score|component|check|rubric|criteri", re.I)
EPS = 1e-9


def _fmt(value: float) -> str:
    return repr(float(value))


def _returns(fn: ast.AST) -> list[ast.Return]:
    return [r for r in walk_local(list(ast.iter_child_nodes(fn))) if isinstance(r, ast.Return)]


def _per_file(fn):
    """Cache a helper's result on the Facts: several rules ask the same question of one file."""

    @wraps(fn)
    def cached(facts: Facts):
        if fn.__name__ not in facts.memo:
            facts.memo[fn.__name__] = fn(facts)
        return facts.memo[fn.__name__]

    return cached


@_per_file
def _collections(facts: Facts) -> list[tuple[str, ast.Assign, list[ast.AST]]]:
    """Weight tables and check lists: (name, assignment, entries) of literal dicts/lists/tuples that
    are named like weights or whose entries refer to local functions."""
    found = []
    for node in facts.nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        value, name = node.value, node.targets[0].id
        entries = list(value.values) if isinstance(value, ast.Dict) else \
            list(value.elts) if isinstance(value, ast.List | ast.Tuple) else None  # fmt: skip
        if not entries:
            continue
        refs_functions = any(isinstance(n, ast.Name) and n.id in facts.functions for e in entries for n in ast.walk(e))
        if WEIGHTS_RE.search(name) or refs_functions:
            found.append((name, node, entries))
    return found


def _is_weight_table(facts: Facts, name: str, entries: list[ast.AST]) -> bool:
    # a table named "checks" may hold expected data values; only weights and check tables are summed
    return "weight" in name.lower() or any(isinstance(n, ast.Name) and n.id in facts.functions
                                           for e in entries for n in ast.walk(e))  # fmt: skip


def _entry_weight(entry: ast.AST) -> float | None:
    """The weight of one table entry: the number itself, or the first number in a tuple/list entry."""
    if (value := number(entry)) is not None:
        return value
    if isinstance(entry, ast.Tuple | ast.List):
        return next((v for e in entry.elts if (v := number(e)) is not None), None)
    return None


@_per_file
def _deciders(facts: Facts) -> list[ast.AST]:
    """What decides some credit (its guards and its value), each node once: many credits share guards."""
    found = {id(n): n for credit in facts.credits
             for n in [*facts.context(credit.node).guards, credit.value] if n is not None}  # fmt: skip
    return list(found.values())


@_per_file
def scored_functions(facts: Facts) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """@component checks, functions whose result decides a credit, and functions in a check table."""
    names = {sub.func.id for node in _deciders(facts) for sub in ast.walk(node)
             if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in facts.functions}
    for _, _, entries in _collections(facts):
        names |= {n.id for e in entries for n in ast.walk(e) if isinstance(n, ast.Name) and n.id in facts.functions}
    found = {id(fn): fn for fn in facts.components}
    found.update({id(fn): fn for name in names for fn in facts.functions[name]})
    return sorted(found.values(), key=lambda fn: fn.lineno)


def constant_score(facts: Facts) -> Iterator[Finding]:
    """Credit that no state check decides: a constant REWARD print, an unconditional `score += 0.5`,
    a check function or lambda that returns a positive constant on every path that does not raise."""
    for credit in facts.credits:
        ctx = facts.context(credit.node)
        if ctx.handler is not None or ctx.conditional:
            continue
        if credit.kind == "print":
            yield Finding(rule="constant_score", line=credit.node.lineno,
                          message=f"prints a constant `REWARD: {_fmt(credit.literal or 0)}` that no state check "
                                  "decides; the grader must compute the score from the state")  # fmt: skip
        elif credit.kind == "increment" and credit.literal is not None and credit.literal > 0:
            yield Finding(rule="constant_score", line=credit.node.lineno,
                          message=f"`{credit.target} += {_fmt(credit.literal)}` runs on every path, so this credit "
                                  "is earned without checking anything")  # fmt: skip
    for fn in scored_functions(facts):
        returns = [r for r in _returns(fn) if facts.context(r).handler is None]
        values = [number(r.value) for r in returns]
        if returns and all(v is not None and v > 0 for v in values):
            yield Finding(rule="constant_score", line=fn.lineno,
                          message=f"check `{fn.name}` returns {ast.unparse(returns[0].value)} on every path that "
                                  "does not raise: it gives full credit without comparing the state to anything")  # fmt: skip
    for _, _, entries in _collections(facts):
        for lam in (n for e in entries for n in ast.walk(e) if isinstance(n, ast.Lambda)):
            if (value := number(lam.body)) is not None and value > 0:
                yield Finding(rule="constant_score", line=lam.lineno,
                              message=f"a scored lambda returns the constant {ast.unparse(lam.body)}")  # fmt: skip


@_per_file
def _scored_names(facts: Facts) -> set[str]:
    names: set[str] = set()
    for node in _deciders(facts):
        names |= names_in(node)
    for fn in scored_functions(facts):
        for ret in _returns(fn):
            names |= names_in(ret.value)
    for _, value, _ in facts.reward_prints:
        names |= names_in(value)
    return names


def _is_true(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def unconditional_flag(facts: Facts) -> Iterator[Finding]:
    """A flag set True and never set by a state check, then scored (the paper's `chart_verified = True`).
    A loop flag (`ok = True`, then `ok = False` on a bad row) has another binding and is fine."""
    for name in sorted(_scored_names(facts)):
        binds = facts.bindings.get(name, [])
        if not binds or not all(b.kind == "assign" and _is_true(b.value) for b in binds):
            continue
        free = [b for b in binds if not facts.context(b.node).conditional]
        if free:
            yield Finding(rule="unconditional_flag", line=free[0].node.lineno,
                          message=f"`{name}` is set to True and never to anything a state check decides, yet it "
                                  "is scored: the credit asserts success instead of verifying it")  # fmt: skip


def existence_only(facts: Facts) -> Iterator[Finding]:
    """A scored check whose only look at the state is whether a path exists (or a glob matches)."""
    why = "the file's content is never read, so creating an empty or wrong file earns the credit"
    for fn in facts.components:
        if facts.inspect(*fn.body).existence_only:
            yield Finding(rule="existence_only", line=fn.lineno,
                          message=f"component `{fn.name}` only checks that a path exists: {why}")
    for credit in facts.credits:
        ctx = facts.context(credit.node)
        if ctx.handler is None and facts.inspect(*ctx.guards, *([credit.value] if credit.value else [])).existence_only:
            yield Finding(rule="existence_only", line=credit.node.lineno,
                          message=f"credit `{ast.unparse(credit.node)[:80]}` is decided only by existence checks: {why}")


def score_from_exception(facts: Facts) -> Iterator[Finding]:
    """Credit given inside an `except` handler: a crash or missing file must never earn points."""
    flags = _scored_names(facts)
    for handler in (n for n in facts.nodes if isinstance(n, ast.ExceptHandler)):
        in_function = isinstance(_scope(facts, handler), ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for node in walk_local(handler.body):
            what = None
            if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name) \
                    and node.target.id in facts.score_names | flags and number(node.value) != 0:  # fmt: skip
                what = f"adds to `{node.target.id}`"
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in facts.score_names | flags
                                                      for t in node.targets) and _positive(node.value):  # fmt: skip
                what = f"sets `{ast.unparse(node.targets[0])} = {ast.unparse(node.value)}`"
            elif isinstance(node, ast.Return) and in_function and _positive(node.value):
                what = f"returns {ast.unparse(node.value)[:40]}"
            elif isinstance(node, ast.Call) and (lit := facts.reward_value(node)[1]) is not None and lit > 0:
                what = f"prints `REWARD: {_fmt(lit)}`"
            if what:
                yield Finding(rule="score_from_exception", line=node.lineno,
                              message=f"an except handler {what}: an exception (missing file, broken check) must "
                                      "earn nothing, not credit")  # fmt: skip


def _positive(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]  # (score, detail) pairs
    value = number(node)
    return value is not None and value > 0


def _scope(facts: Facts, node: ast.AST) -> ast.AST | None:
    while node is not None and not isinstance(node, (ast.Module, *DEFS, ast.Lambda)):
        node = facts.parents.get(node)
    return node


def no_state_access(facts: Facts) -> Iterator[Finding]:
    """A reward must look at the state: read a file, list a folder, probe a path or ask the hub."""
    if not any(isinstance(n, ast.Call) and facts.call_kind(n) for n in facts.nodes):
        yield Finding(rule="no_state_access", line=1,
                      message="the reward never reads a file, lists a folder or queries the hub, so its score "
                              "cannot depend on what the agent did")  # fmt: skip


def _accumulator_appends(facts: Facts) -> int:
    # score = sum(parts) with parts.append(...) or parts["x"] = ... per check: each is one component
    lists = {n for name in facts.score_names for b in facts.bindings.get(name, []) if b.value is not None
             for call in ast.walk(b.value) if isinstance(call, ast.Call) and facts.call_name(call) == "sum"
             for n in names_in(call)}  # fmt: skip
    appends = sum(1 for n in facts.nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr == "append" and isinstance(n.func.value, ast.Name) and n.func.value.id in lists)
    stores = sum(1 for n in facts.nodes if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in lists for t in n.targets))
    return appends + stores


def _weighted_terms(value: ast.AST | None) -> int:
    # score = 0.5 * heading_ok + 0.5 * table_ok: one component per weighted term
    terms, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            stack += [node.left, node.right]
        else:
            terms.append(node)
    return sum(1 for t in terms if _weight(t) is not None) if len(terms) > 1 else 0


def _increment_count(facts: Facts, credit: Credit) -> int:
    # In a loop over a parameter table (one pass per folder, per target) an increment is one component
    # per entry: count it twice, the length is data. In a loop over the state (per row) it is one
    # component with partial credit.
    ctx = facts.context(credit.node)
    return 2 if any(not facts.inspect(loop).reads for loop in ctx.loops) else 1


def too_few_components(facts: Facts) -> Iterator[Finding]:
    """At least two scored components (DESIGN.md §3.1): partial credit needs something to be partial."""
    if facts.components:
        # a component registered in a loop (one per target) counts twice: the loop length is data
        count = sum(2 if facts.context(fn).looped else 1 for fn in facts.components)
        line, what = facts.components[0].lineno, "@component check"
    else:
        increments = [c for c in facts.credits if c.kind in ("increment", "assign")]
        # deduction style (score = 1.0, then score -= w per failed check): each deduction is a component
        deductions = sum(1 for n in facts.nodes if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Sub)
                         and isinstance(n.target, ast.Name) and n.target.id in facts.score_names)  # fmt: skip
        tables = [len(entries) for _, _, entries in _collections(facts)]
        count = max(sum(map(partial(_increment_count, facts), increments)) + _accumulator_appends(facts) + deductions,
                    *tables, *map(_weighted_terms, facts.score_bindings()), 0)  # fmt: skip
        line = increments[0].node.lineno if increments else 1
        what = "scored component"
    if count < 2:
        yield Finding(rule="too_few_components", line=line,
                      message=f"found {count} {what}(s); a reward needs at least two "
                              "independently weighted components so that a near miss earns partial credit")  # fmt: skip


def _gain(stmts: list[ast.stmt], credits: dict[int, float]) -> float:
    """The most literal credit one pass through `stmts` can add (if/else: the larger branch)."""
    total = 0.0
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            total += max(_gain(stmt.body, credits), _gain(stmt.orelse, credits))
        elif isinstance(stmt, ast.Try):
            handlers = [_gain(h.body, credits) for h in stmt.handlers]
            total += sum(_gain(b, credits) for b in (stmt.body, stmt.orelse, stmt.finalbody)) + max(handlers, default=0)
        elif isinstance(stmt, ast.Match):
            total += max((_gain(c.body, credits) for c in stmt.cases), default=0.0)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            total += _gain(stmt.body, credits)  # a loop counts once: the scan cannot know its length
        else:
            total += credits.get(id(stmt), 0.0)
    return total


def _weight(node: ast.AST | None) -> float | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return number(node.left) if number(node.left) is not None else number(node.right)
    if isinstance(node, ast.IfExp):
        return max((v for v in (number(node.body), number(node.orelse)) if v is not None), default=None)
    return number(node)


def _normalised(facts: Facts, total: float) -> bool:
    """Is the accumulated score clamped (min(..., 1)) or divided by a total before it is printed?"""
    exprs = facts.score_bindings() + [value for _, value, _ in facts.reward_prints if value is not None]
    for expr in exprs:
        top = expr
        while isinstance(top, ast.Call) and facts.call_name(top) in {"round", "float", "max", "str"} and top.args:
            top = top.args[0]
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and facts.call_name(node) == "min" and \
                    any((v := number(a)) is not None and v <= 1 for a in node.args):  # fmt: skip
                return True
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and \
                    (node is top or names_in(node.left) & facts.score_names):  # fmt: skip
                divisor = number(node.right)
                if divisor is None or divisor >= total - EPS:
                    return True
    return any(isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Div) and isinstance(n.target, ast.Name)
               and n.target.id in facts.score_names for n in facts.nodes)  # fmt: skip


def score_can_exceed_one(facts: Facts) -> Iterator[Finding]:
    """Literal credits (or a weight table) summing past 1.0 with no clamp or division before printing.
    @component weights are exempt: rewardkit divides by their total."""
    if facts.components:
        return
    credits = {id(c.node): w for c in facts.credits if c.kind == "increment" and (w := _weight(c.value)) and w > 0}
    scopes = [facts.tree, *(fn for defs in facts.functions.values() for fn in defs)]
    # each function has its own locals: a per-check `pts` summing to 1 in three checks is not 3
    gain = max(_gain(scope.body, credits) for scope in scopes)
    tables = [(sum(w for e in entries if (w := _entry_weight(e)) is not None), node)
              for name, node, entries in _collections(facts) if _is_weight_table(facts, name, entries)]  # fmt: skip
    table_sum, table_node = max(tables, key=lambda t: t[0], default=(0.0, None))
    total = max(gain, table_sum)
    if total <= 1.0 + EPS or _normalised(facts, total):
        return
    if gain >= table_sum:
        line = max(c.node.lineno for c in facts.credits if id(c.node) in credits)
        source = "literal score increments add"
    else:
        line, source = table_node.lineno, "the weight table adds"
    yield Finding(rule="score_can_exceed_one", line=line,
                  message=f"{source} up to {_fmt(round(total, 6))} and the score is neither clamped "
                          "(min(score, 1.0)) nor divided by the total weight: a full solution prints a "
                          "REWARD above 1")  # fmt: skip
