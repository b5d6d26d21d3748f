"""score_can_exceed_one: literal credits, or a weight table, that add up past 1.0 while the score is
neither clamped nor divided by the total before it is printed. A loop counts once and an if/else its
larger branch; @component weights are exempt (rewardkit divides by their total).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts, names_in, number
from tasks.scan.scored_code import check_tables, number_text
from tasks.scan.syntax import walk

EPS = 1e-9


def _is_weight_table(facts: Facts, name: str, entries: list[ast.AST]) -> bool:
    # a table named "checks" may hold expected data values; only weights and check tables are summed
    return "weight" in name.lower() or any(
        isinstance(n, ast.Name) and n.id in facts.functions for e in entries for n in walk(e)
    )


def _entry_weight(entry: ast.AST) -> float | None:
    """The weight of one table entry: the number itself, or the first number in a tuple/list entry."""
    if (value := number(entry)) is not None:
        return value
    if isinstance(entry, ast.Tuple | ast.List):
        return next((v for e in entry.elts if (v := number(e)) is not None), None)
    return None


def _gain(stmts: list[ast.stmt], credits: dict[int, float]) -> float:
    """The most literal credit one pass through `stmts` can add (if/else: the larger branch)."""
    total = 0.0
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            total += max(_gain(stmt.body, credits), _gain(stmt.orelse, credits))
        elif isinstance(stmt, ast.Try):
            handlers = [_gain(h.body, credits) for h in stmt.handlers]
            total += sum(_gain(b, credits) for b in (stmt.body, stmt.orelse, stmt.finalbody)) + max(
                handlers, default=0
            )
        elif isinstance(stmt, ast.Match):
            total += max((_gain(c.body, credits) for c in stmt.cases), default=0.0)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            total += _gain(stmt.body, credits)  # a loop counts once: the scan cannot know its length
        else:
            total += credits.get(id(stmt), 0.0)
    return total


def credit_weight(node: ast.AST | None) -> float | None:
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
        while (
            isinstance(top, ast.Call)
            and facts.call_name(top) in {"round", "float", "max", "str"}
            and top.args
        ):
            top = top.args[0]
        for node in walk(expr):
            if (
                isinstance(node, ast.Call)
                and facts.call_name(node) == "min"
                and any((v := number(a)) is not None and v <= 1 for a in node.args)
            ):
                return True
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Div)
                and (node is top or names_in(node.left) & facts.score_names)
            ):
                divisor = number(node.right)
                if divisor is None or divisor >= total - EPS:
                    return True
    return any(
        isinstance(n, ast.AugAssign)
        and isinstance(n.op, ast.Div)
        and isinstance(n.target, ast.Name)
        and n.target.id in facts.score_names
        for n in facts.nodes
    )


def score_can_exceed_one(facts: Facts) -> Iterator[Finding]:
    """Literal credits (or a weight table) summing past 1.0 with no clamp or division before printing.
    @component weights are exempt: rewardkit divides by their total."""
    if facts.components:
        return
    credits = {
        id(c.node): w
        for c in facts.credits
        if c.kind == "increment" and (w := credit_weight(c.value)) and w > 0
    }
    scopes = [facts.tree, *(fn for defs in facts.functions.values() for fn in defs)]
    # each function has its own locals: a per-check `pts` summing to 1 in three checks is not 3
    gain = max(_gain(scope.body, credits) for scope in scopes)
    tables = [
        (sum(w for e in entries if (w := _entry_weight(e)) is not None), node)
        for name, node, entries in check_tables(facts)
        if _is_weight_table(facts, name, entries)
    ]
    table_sum, table_node = max(tables, key=lambda t: t[0], default=(0.0, None))
    total = max(gain, table_sum)
    if total <= 1.0 + EPS or _normalised(facts, total):
        return
    if gain >= table_sum:
        line = max(c.node.lineno for c in facts.credits if id(c.node) in credits)
        source = "literal score increments add"
    else:
        line, source = table_node.lineno, "the weight table adds"
    yield Finding(
        rule="score_can_exceed_one",
        line=line,
        message=f"{source} up to {number_text(round(total, 6))} and the score is neither clamped "
        "(min(score, 1.0)) nor divided by the total weight: a full solution prints a "
        "REWARD above 1",
    )
