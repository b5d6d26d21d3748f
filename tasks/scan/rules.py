"""The reward scanner's scoring rules: where each credited score comes from. Each rule is a function
`(Facts) -> Iterator[Finding]`; tasks/scan/__init__.py runs them.

- constant_score: credit whose value folds to a positive constant (values.py) and whose guards are
  either free of the state (facts.py provenance) or fold to True (`x == x`, `len("abc") == 3`); a
  REWARD print whose every possible value is positive; a check every return of which is positive.
- unconditional_flag / existence_only / score_from_exception: flags asserted, credit decided only by
  probes (existence, sizes, mtimes, listing counts), credit reached from an except/finally path.
- answer_key: a check compares the state with a hidden file or a file named like an answer key.
- nondeterministic: the credit depends on the environment, argv, the clock or randomness.
- no_state_access / too_few_components / score_can_exceed_one: shape of the score.

The *credit region* is the code a credit is computed from: the guards and values of credits, the
bodies of components and scored checks, the REWARD values, and, followed through names and local
calls, everything those read. Rules about inputs (answer keys, nondeterminism) look only there.

What these rules cannot decide: whether a visible file existed in the initial state (a check that
compares two visible files the setup left unchanged always passes, and looks like a copy task's
check), bounds other than "always positive" (`x or 1`), a credit whose constancy depends on the
number of loop iterations, and checks whose content test is weak but real (a row count).
Rules about *what the grader may touch* (processes, code, network, paths) live in access.py; those
about the grading machinery and its output line in integrity.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import wraps

from tasks.models import Finding
from tasks.scan.credit import Facts, names_in, number
from tasks.scan.facts import DEFS, answer_named, kids, walk, walk_local
from tasks.scan.values import positive, truth

WEIGHTS_RE = re.compile(r"weight|point|credit|score|component|check|rubric|criteri", re.I)
EPS = 1e-9


def _fmt(value: float) -> str:
    return repr(float(value))


def _returns(fn: ast.AST) -> list[ast.Return]:
    return [r for r in walk_local(kids(fn)) if isinstance(r, ast.Return)]


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
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        value, name = node.value, node.targets[0].id
        entries = (
            list(value.values)
            if isinstance(value, ast.Dict)
            else list(value.elts)
            if isinstance(value, ast.List | ast.Tuple)
            else None
        )
        if not entries:
            continue
        refs_functions = any(
            isinstance(n, ast.Name) and n.id in facts.functions for e in entries for n in walk(e)
        )
        if WEIGHTS_RE.search(name) or refs_functions:
            found.append((name, node, entries))
    return found


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


@_per_file
def _deciders(facts: Facts) -> list[ast.AST]:
    """What decides some credit (its guards and its value), each node once: many credits share guards."""
    found = {
        id(n): n
        for credit in facts.credits
        for n in [*facts.context(credit.node).guards, credit.value]
        if n is not None
    }
    return list(found.values())


@_per_file
def scored_functions(facts: Facts) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """@component checks, functions whose result decides a credit, and functions in a check table."""
    names = {
        sub.func.id
        for node in _deciders(facts)
        for sub in walk(node)
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in facts.functions
    }
    for _, _, entries in _collections(facts):
        names |= {
            n.id for e in entries for n in walk(e) if isinstance(n, ast.Name) and n.id in facts.functions
        }
    found = {id(fn): fn for fn in facts.components}
    found.update({id(fn): fn for name in names for fn in facts.functions[name]})
    return sorted(found.values(), key=lambda fn: fn.lineno)


def _deciding(facts: Facts, guard: ast.AST) -> bool:
    """Does this guard let the state decide? Not if it ignores the state or always holds."""
    if not facts.inspect_test(guard).state:
        return False
    return isinstance(guard, ast.stmt) or truth(facts.values.fold(guard)) is not True


def _decided(facts: Facts, node: ast.AST) -> bool:
    return any(_deciding(facts, g) for g in facts.context(node).guards)


@_per_file
def scored_closure(facts: Facts) -> list[ast.AST]:
    """Scored functions and the local functions whose result they return (a helper behind a check)."""
    found = {id(fn): fn for fn in scored_functions(facts)}
    frontier = list(found.values())
    while frontier:
        fn = frontier.pop()
        for ret in facts.returns(fn):
            for sub in walk(ret.value) if ret.value is not None else ():
                if (
                    isinstance(sub, ast.Call)
                    and isinstance(sub.func, ast.Name)
                    and sub.func.id in facts.functions
                ):
                    for d in facts.functions[sub.func.id]:
                        if id(d) not in found:
                            found[id(d)] = d
                            frontier.append(d)
    return list(found.values())


def constant_score(facts: Facts) -> Iterator[Finding]:
    """Credit that no state check decides: a REWARD print whose every possible value is positive, a
    `score += c` (c folding to a positive constant) that no state test guards, a check function or
    lambda whose every return is a positive constant (arithmetic, builtins and helpers folded)."""
    values = facts.values
    values.run_all()
    for credit in facts.credits:
        ctx = facts.context(credit.node)
        if ctx.handler is not None or _decided(facts, credit.node):
            continue
        if credit.kind == "increment" and credit.literal is not None and credit.literal > 0:
            yield Finding(
                rule="constant_score",
                line=credit.node.lineno,
                message=f"`{ast.unparse(credit.node)[:60]}` adds {_fmt(credit.literal)} on every path, so "
                "this credit is earned without checking anything",
            )
    for call, _, lit in facts.reward_prints:
        printed = values.print_vals.get(id(call), (lit,) if lit is not None else None)
        if facts.context(call).handler is None and positive(printed) and not _decided(facts, call):
            yield Finding(
                rule="constant_score",
                line=call.lineno,
                message=f"prints `REWARD: {_fmt(min(printed))}` or more whatever the state holds (every "
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
                f"{_fmt(min(min(v) for _, v in returns))}) on every path that does not raise: it gives "
                "credit without comparing the state to anything",
            )
    lambdas = [n for _, _, entries in _collections(facts) for e in entries for n in walk(e)]
    for lam in [*(n for n in lambdas if isinstance(n, ast.Lambda)), *facts.lambda_components]:
        if positive(values.fold(lam.body)):
            yield Finding(
                rule="constant_score",
                line=lam.lineno,
                message=f"a scored lambda returns the constant {ast.unparse(lam.body)[:40]}",
            )


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


def _truthy(facts: Facts, node: ast.AST | None) -> bool:
    return positive(facts.values.fold(node))  # True, 1, 1 == 1


def unconditional_flag(facts: Facts) -> Iterator[Finding]:
    """A flag set True and never set by a state check, then scored (the paper's `chart_verified = True`).
    A loop flag (`ok = True`, then `ok = False` on a bad row) has another binding and is fine."""
    for name in sorted(_scored_names(facts)):
        binds = facts.bindings.get(name, [])
        if not binds or not all(b.kind == "assign" and _truthy(facts, b.value) for b in binds):
            continue
        if _compared_only(facts, name):
            continue  # EXPECTED_SHEETS = 1 ... len(wb.sheetnames) == EXPECTED_SHEETS: an expected value
        free = [b for b in binds if not _decided(facts, b.node)]
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
    flags = _scored_names(facts)
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
                what = f"prints `REWARD: {_fmt(lit)}`"
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
        id(c.node): w for c in facts.credits if c.kind == "increment" and (w := _weight(c.value)) and w > 0
    }
    scopes = [facts.tree, *(fn for defs in facts.functions.values() for fn in defs)]
    # each function has its own locals: a per-check `pts` summing to 1 in three checks is not 3
    gain = max(_gain(scope.body, credits) for scope in scopes)
    tables = [
        (sum(w for e in entries if (w := _entry_weight(e)) is not None), node)
        for name, node, entries in _collections(facts)
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
        message=f"{source} up to {_fmt(round(total, 6))} and the score is neither clamped "
        "(min(score, 1.0)) nor divided by the total weight: a full solution prints a "
        "REWARD above 1",
    )


# --- inputs a check must not compare against ----------------------------------------------------------


@_per_file
def credit_region(facts: Facts) -> dict[int, ast.AST]:
    """Every node some credit is computed from (see the module docstring), by id."""
    roots: list[ast.AST] = [*_deciders(facts), *(v for _, v, _ in facts.reward_prints if v is not None)]
    for fn in [*scored_closure(facts), *facts.lambda_components]:
        roots.extend(fn.body if isinstance(fn.body, list) else [fn.body])
    return _reach(facts, roots)


def _reach(facts: Facts, roots: list[ast.AST]) -> dict[int, ast.AST]:
    found: dict[int, ast.AST] = {}
    names_done: set[str] = set()
    fns_done: set[str] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in found or isinstance(node, DEFS):
            continue
        found[id(node)] = node
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in names_done:
            names_done.add(node.id)
            for b in facts.bindings.get(node.id, []):
                stack.extend(b.sources)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fname = node.func.id
            if fname in facts.functions and fname not in fns_done:
                fns_done.add(fname)
                for fn in facts.functions[fname]:
                    stack.extend(fn.body)
        stack.extend(kids(node))
    return found


def answer_key(facts: Facts) -> Iterator[Finding]:
    """The expected values come from the state instead of the task: a read of a file named like an
    answer key (answers, expected, solution, golden, ...), or a scored comparison of the state with
    something read only from a hidden file (one the setup left, like `~/.answers.json` or
    `Desktop/.ref.csv`; an app's own config under ~/.config, ~/.local, ~/.bashrc does not count).
    The agent can read such a file, and can rewrite it to match whatever it produced."""
    for call in (n for n in facts.nodes if isinstance(n, ast.Call) and facts.call_kind(n) == "read"):
        path = facts.read_path(call)
        found = facts.values.paths(path) if path is not None else None
        hit = (
            next((p for p in sorted(found) if answer_named(p) and "/." in f"/{p}"), None)
            if isinstance(found, frozenset)
            else None
        )
        if hit:  # hidden *and* named like an answer key: ~/.answers.json, ~/.cache/expected.csv
            yield Finding(
                rule="answer_key",
                line=call.lineno,
                message=f"reads {hit!r}, a hidden file named like an answer key: the expected values must "
                "come from the task's parameters (or be computed from its input data)",
            )
    for node in credit_region(facts).values():
        if not isinstance(node, ast.Compare):
            continue
        sides = [facts.inspect(x) for x in [node.left, *node.comparators]]
        key = next(
            (i for i, s in enumerate(sides) if s.hidden and not (s.plain or s.opaque or s.names)), None
        )
        if key is not None and any(s.plain or s.names for i, s in enumerate(sides) if i != key):
            yield Finding(
                rule="answer_key",
                line=node.lineno,
                message=f"`{ast.unparse(node)[:60]}` compares the state with values read only from a "
                "hidden file or one named like an answer key (left by the setup): the expected values "
                "must come from the task's parameters or its visible input data",
            )


def nondeterministic(facts: Facts) -> Iterator[Finding]:
    """The score must be a function of the final state and the task. Environment variables (other
    than the hub helper's CUAGYM_HUB_URL / CUAGYM_SID, and HOME), argv and stdin are flagged wherever
    they are read; the clock, randomness, the process id and the host name wherever a credit, a
    component or a precondition is computed from them (a settle-wait with time.sleep is fine)."""
    region = credit_region(facts)
    pre = _reach(facts, [s for fn in facts.preconditions for s in fn.body])
    for node, why in facts.nondet_sources:
        anywhere = why.startswith("reads")
        if anywhere or id(node) in region or id(node) in pre:
            yield Finding(
                rule="nondeterministic",
                line=node.lineno,
                message=f"{why}: a grader must depend only on the final state and the task's parameters, "
                "not on the environment, the command line, the clock or chance",
            )
