"""The component count (too_few_components): a reward needs at least two independently scored
components so that a near miss earns partial credit (DESIGN.md §3.1). Components come in many
styles, and each style is counted where it is written:

- rewardkit: `@component` checks and `component(...)(fn)` registrations (one registered in a loop
  over a parameter table counts twice: the table's length is data);
- accumulation: `score += w` increments, deductions (`score -= w`), appends to a summed list,
  literal weight tables and check tables;
- expressions: the weighted or state-decided terms of the sum a score name is bound to *or* a REWARD
  line prints (`print(f"REWARD: {0.5*a + 0.5*b}")`, `(a + b) / 2`, `round(0.6*a + 0.4*b, 4)`);
- helpers: calls of local functions that look at the state, in what the score is computed from.

The largest of these counts is the reward's. What it cannot see: two terms that repeat one check
under different names (`b = a`), and components whose number depends on loop iterations over the
state (counted once).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import partial

from tasks.models import Finding
from tasks.scan.credit import Credit, Facts, names_in, number
from tasks.scan.score_bounds import credit_weight
from tasks.scan.scored_code import check_tables
from tasks.scan.syntax import kids, walk

WRAPPERS = {"round", "float", "min", "max", "str", "int"}  # wrap the score without changing its parts


def _accumulator_appends(facts: Facts) -> int:
    # score = sum(parts) with parts.append(...) or parts["x"] = ... per check: each is one component
    # (the sum may also sit in the REWARD line itself: print(f"REWARD: {sum(parts) / len(parts)}"))
    roots = [*facts.score_bindings(), *(v for _, v, _ in facts.reward_prints if v is not None)]
    lists = {
        n
        for root in roots
        for call in walk(root)
        if isinstance(call, ast.Call) and facts.call_name(call) == "sum"
        for n in names_in(call)
    }
    appends = sum(
        1
        for n in facts.nodes
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "append"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in lists
    )
    stores = sum(
        1
        for n in facts.nodes
        if isinstance(n, ast.Assign)
        and any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in lists
            for t in n.targets
        )
    )
    return appends + stores


def _additive_terms(facts: Facts, value: ast.AST | None) -> int:
    """One component per term of the sum `value` computes, seen through the score's wrappers
    (round, min, a division or product by a literal): a weighted term (`0.5 * heading_ok`, `w if ok
    else 0`) or a distinct term that looks at the state (`a` in `(a + b) / 2`)."""
    node = _unwrap(facts, value)
    terms, stack = [], [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Add):
            stack += [cur.left, cur.right]
        else:
            terms.append(cur)
    if len(terms) < 2:
        return 0
    counted = {  # a literal term (`score + 0`, `0.5 + ...`) is no check
        ast.dump(t)
        for t in terms
        if number(t) is None and (credit_weight(t) is not None or (t is not None and facts.inspect(t).state))
    }
    return len(counted)


def _unwrap(facts: Facts, node: ast.AST | None) -> ast.AST | None:
    while True:
        if isinstance(node, ast.Call) and facts.call_name(node) in WRAPPERS and node.args:
            if facts.call_name(node) in {"min", "max"}:  # min(score, 1.0): the non-literal argument
                rest = [a for a in node.args if not isinstance(a, ast.Constant)]
                if len(rest) != 1:
                    return node
                node = rest[0]
            else:
                node = node.args[0]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.Mult):
            if isinstance(node.right, ast.Constant):
                node = node.left
            elif isinstance(node.op, ast.Mult) and isinstance(node.left, ast.Constant):
                node = node.right
            else:
                return node
        else:
            return node


def _increment_count(facts: Facts, credit: Credit) -> int:
    # In a loop over a parameter table (one pass per folder, per target) an increment is one component
    # per entry: count it twice, the length is data. In a loop over the state (per row) it is one
    # component with partial credit.
    ctx = facts.context(credit.node)
    return 2 if any(not facts.inspect(loop).reads for loop in ctx.loops) else 1


def _helper_checks(facts: Facts) -> int:
    """Checks living in helper functions: `score = check_title(doc) + check_body(doc)`, `parts =
    [a(), b()]`, `results = {"x": x_ok()}`. One component per call of a local function that looks at
    the state, in what the score is computed from (not nested in another such call's arguments)."""
    roots = [*facts.score_bindings(), *(value for _, value, _ in facts.reward_prints if value is not None)]
    for name in facts.score_names:
        roots += [b.value for b in facts.bindings.get(name, []) if b.kind == "mutate" and b.value is not None]
    count, seen = 0, set()
    for root in roots:
        stack = [root]
        while stack:
            node = stack.pop()
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in facts.functions
                and id(node) not in seen
                and facts.fn_insp.get(node.func.id, 0)
                and facts.fn_insp[node.func.id].state
            ):
                seen.add(id(node))
                count += 1
                continue
            stack.extend(c for c in kids(node) if not isinstance(c, ast.Lambda))
    return count


def too_few_components(facts: Facts) -> Iterator[Finding]:
    """At least two scored components (DESIGN.md §3.1): partial credit needs something to be partial."""
    if facts.components or facts.lambda_components:
        # a component registered in a loop (one per target) counts twice: the loop length is data
        registered = [*facts.components, *facts.lambda_components]
        count = sum(2 if facts.context(fn).looped else 1 for fn in registered)
        line, what = registered[0].lineno, "@component check"
    else:
        increments = [c for c in facts.credits if c.kind in ("increment", "assign")]
        # deduction style (score = 1.0, then score -= w per failed check): each deduction is a component
        deductions = sum(
            1
            for n in facts.nodes
            if isinstance(n, ast.AugAssign)
            and isinstance(n.op, ast.Sub)
            and isinstance(n.target, ast.Name)
            and n.target.id in facts.score_names
        )
        tables = [len(entries) for _, _, entries in check_tables(facts)]
        count = max(
            sum(map(partial(_increment_count, facts), increments)) + _accumulator_appends(facts) + deductions,
            *tables,
            *(_additive_terms(facts, v) for v in facts.score_bindings()),
            *(_additive_terms(facts, v) for _, v, _ in facts.reward_prints if v is not None),
            _helper_checks(facts),
            0,
        )
        line = increments[0].node.lineno if increments else 1
        what = "scored component"
    if count < 2:
        yield Finding(
            rule="too_few_components",
            line=line,
            message=f"found {count} {what}(s); a reward needs at least two "
            "independently weighted components so that a near miss earns partial credit",
        )
