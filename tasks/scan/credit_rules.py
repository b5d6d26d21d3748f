"""The reward scanner's credit rules: credit some check of the state must decide.

- constant_score: credit whose value folds to a positive constant (values.py) and whose guards are
  either free of the state (facts.py provenance) or fold to True (`x == x`, `len("abc") == 3`); a
  REWARD print whose every possible value is positive; a check every return of which is positive.
- unconditional_flag / existence_only / score_from_exception: flags asserted, credit decided only by
  probes (existence, sizes, mtimes, listing counts), credit reached from an except/finally path.
- no_state_access: a reward that never looks at the state.

What these rules cannot decide: whether a visible file existed in the initial state (a check that
compares two visible files the setup left unchanged always passes, and looks like a copy task's
check), bounds other than "always positive" (`x or 1`), a credit whose constancy depends on the
number of loop iterations, and checks whose content test is weak but real (a row count).
The shape of the score is checked in score_bounds.py and components.py, the inputs a credit may be
computed from in input_rules.py, what the grader may touch in run_time_code.py, hub_network.py and
env_paths.py, and the grading machinery and its output line in grader_patches.py and reward_line.py.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts, number
from tasks.scan.scored_code import check_tables, decided, number_text, scored_closure, scored_names
from tasks.scan.syntax import DEFS, walk, walk_local
from tasks.scan.value_sets import positive


def constant_score(facts: Facts) -> Iterator[Finding]:
    """Credit that no state check decides: a REWARD print whose every possible value is positive, a
    `score += c` (c folding to a positive constant) that no state test guards, a check function or
    lambda whose every return is a positive constant (arithmetic, builtins and helpers folded)."""
    values = facts.values
    values.run_all()
    for credit in facts.credits:
        ctx = facts.context(credit.node)
        if ctx.handler is not None or decided(facts, credit.node):
            continue
        if credit.kind == "increment" and credit.literal is not None and credit.literal > 0:
            yield Finding(
                rule="constant_score",
                line=credit.node.lineno,
                message=f"`{ast.unparse(credit.node)[:60]}` adds {number_text(credit.literal)} on every path, so "
                "this credit is earned without checking anything",
            )
    for call, _, lit in facts.reward_prints:
        printed = values.print_vals.get(id(call), (lit,) if lit is not None else None)
        if facts.context(call).handler is None and positive(printed) and not decided(facts, call):
            yield Finding(
                rule="constant_score",
                line=call.lineno,
                message=f"prints `REWARD: {number_text(min(printed))}` or more whatever the state holds (every "
                "path gives this line a constant positive value); the grader must compute the score "
                "from the state",
            )
    for fn in scored_closure(facts):
        returns = [(r, v) for r, v in values.fn_returns.get(id(fn), []) if facts.context(r).handler is None]
        if returns and all(positive(v) for _, v in returns) and not isinstance(fn, ast.Lambda):
            yield Finding(
                rule="constant_score",
                line=fn.lineno,
                message=f"check `{fn.name}` returns {ast.unparse(returns[0][0].value)[:40]} (always "
                f"{number_text(min(min(v) for _, v in returns))}) on every path that does not raise: it gives "
                "credit without comparing the state to anything",
            )
    lambdas = [n for _, _, entries in check_tables(facts) for e in entries for n in walk(e)]
    for lam in [*(n for n in lambdas if isinstance(n, ast.Lambda)), *facts.lambda_components]:
        if positive(values.fold(lam.body)):
            yield Finding(
                rule="constant_score",
                line=lam.lineno,
                message=f"a scored lambda returns the constant {ast.unparse(lam.body)[:40]}",
            )


def _truthy(facts: Facts, node: ast.AST | None) -> bool:
    return positive(facts.values.fold(node))  # True, 1, 1 == 1


def unconditional_flag(facts: Facts) -> Iterator[Finding]:
    """A flag set True and never set by a state check, then scored (the paper's `chart_verified = True`).
    A loop flag (`ok = True`, then `ok = False` on a bad row) has another binding and is fine."""
    for name in sorted(scored_names(facts)):
        binds = facts.bindings.get(name, [])
        if not binds or not all(b.kind == "assign" and _truthy(facts, b.value) for b in binds):
            continue
        if _compared_only(facts, name):
            continue  # EXPECTED_SHEETS = 1 ... len(wb.sheetnames) == EXPECTED_SHEETS: an expected value
        free = [b for b in binds if not decided(facts, b.node)]
        if free:
            yield Finding(
                rule="unconditional_flag",
                line=free[0].node.lineno,
                message=f"`{name}` is set to True and never to anything a state check decides, yet it "
                "is scored: the credit asserts success instead of verifying it",
            )


def _compared_only(facts: Facts, name: str) -> bool:
    """Is every read of `name` an operand compared with something that is not a literal?"""
    for node in facts.nodes:
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            parent = facts.parents.get(node)
            if not isinstance(parent, ast.Compare):
                return False
            others = [x for x in [parent.left, *parent.comparators] if x is not node]
            if all(isinstance(x, ast.Constant) for x in others):
                return False
    return True


def existence_only(facts: Facts) -> Iterator[Finding]:
    """A scored check whose only look at the state is whether a path exists (or a glob matches)."""
    why = "the file's content is never read, so creating an empty or wrong file earns the credit"
    for fn in [*facts.components, *facts.lambda_components]:
        if facts.decision(fn).existence_only:
            yield Finding(
                rule="existence_only",
                line=fn.lineno,
                message=f"component `{getattr(fn, 'name', 'lambda')}` only checks that a path exists "
                f"(or its size, age or listing): {why}",
            )
    for credit in facts.credits:
        ctx = facts.context(credit.node)
        if (
            ctx.handler is None
            and (
                facts.inspect_test(*ctx.guards) | facts.inspect(*([credit.value] if credit.value else []))
            ).existence_only
        ):
            yield Finding(
                rule="existence_only",
                line=credit.node.lineno,
                message=f"credit `{ast.unparse(credit.node)[:80]}` is decided only by existence checks: {why}",
            )


def score_from_exception(facts: Facts) -> Iterator[Finding]:
    """Credit from an error path: given inside an `except` handler, in a `finally` block, or reached
    when a try body fails at its first statement and the handler lets the run go on (`pass`) to a
    default that stands (`ok = True` ... `except: pass` ... `if ok: score += 0.5`). A crash or a
    missing file must never earn points."""
    flags = scored_names(facts)
    seen: set[int] = set()
    for handler in (n for n in facts.nodes if isinstance(n, ast.ExceptHandler)):
        in_function = isinstance(_scope(facts, handler), ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for node in walk_local(handler.body):
            what = None
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Add)
                and isinstance(node.target, ast.Name)
                and node.target.id in facts.score_names | flags
                and number(node.value) != 0
            ):
                what = f"adds to `{node.target.id}`"
            elif (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id in facts.score_names | flags for t in node.targets)
                and _positive(node.value)
            ):
                what = f"sets `{ast.unparse(node.targets[0])} = {ast.unparse(node.value)}`"
            elif isinstance(node, ast.Return) and in_function and _positive(node.value):
                what = f"returns {ast.unparse(node.value)[:40]}"
            elif isinstance(node, ast.Call) and (lit := facts.reward_value(node)[1]) is not None and lit > 0:
                what = f"prints `REWARD: {number_text(lit)}`"
            if what:
                seen.add(node.lineno)
                yield Finding(
                    rule="score_from_exception",
                    line=node.lineno,
                    message=f"an except handler {what}: an exception (missing file, broken check) must "
                    "earn nothing, not credit",
                )
    scored = {id(fn) for fn in scored_closure(facts)}
    for try_node, where, what in facts.values.error_credits(facts.score_names | flags, scored):
        if where.lineno in seen:
            continue
        seen.add(where.lineno)
        how = "its finally block" if facts.context(where).final is try_node else "the except path"
        yield Finding(
            rule="score_from_exception",
            line=where.lineno,
            message=f"when the try at line {try_node.lineno} fails at its first statement (a missing or "
            f"broken file), {how} still {what}: an exception must earn nothing, not a default credit",
        )


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
        yield Finding(
            rule="no_state_access",
            line=1,
            message="the reward never reads a file, lists a folder or queries the hub, so its score "
            "cannot depend on what the agent did",
        )
