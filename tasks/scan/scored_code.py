"""Which code gives credit, shared by the scoring rules: weight tables and check lists, what decides
each credit (its guards and value), the scored functions (components, checks whose result decides
a credit, functions in a check table, and the helpers whose result they return) and the names the
score is computed from. Each helper is computed once per file (`per_file`).
"""

from __future__ import annotations

import ast
import re
from functools import wraps

from tasks.scan.credit import Facts, names_in
from tasks.scan.syntax import kids, walk, walk_local
from tasks.scan.value_sets import truth

WEIGHTS_RE = re.compile(r"weight|point|credit|score|component|check|rubric|criteri", re.I)


def number_text(value: float) -> str:
    """A number as the findings show it: `1.0`, `0.5`."""
    return repr(float(value))


def _returns(fn: ast.AST) -> list[ast.Return]:
    return [r for r in walk_local(kids(fn)) if isinstance(r, ast.Return)]


def per_file(fn):
    """Cache a helper's result on the Facts: several rules ask the same question of one file."""

    @wraps(fn)
    def cached(facts: Facts):
        if fn.__name__ not in facts.memo:
            facts.memo[fn.__name__] = fn(facts)
        return facts.memo[fn.__name__]

    return cached


@per_file
def check_tables(facts: Facts) -> list[tuple[str, ast.Assign, list[ast.AST]]]:
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


@per_file
def deciders(facts: Facts) -> list[ast.AST]:
    """What decides some credit (its guards and its value), each node once: many credits share guards."""
    found = {
        id(n): n
        for credit in facts.credits
        for n in [*facts.context(credit.node).guards, credit.value]
        if n is not None
    }
    return list(found.values())


@per_file
def scored_functions(facts: Facts) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """@component checks, functions whose result decides a credit, and functions in a check table."""
    names = {
        sub.func.id
        for node in deciders(facts)
        for sub in walk(node)
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in facts.functions
    }
    for _, _, entries in check_tables(facts):
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


def decided(facts: Facts, node: ast.AST) -> bool:
    return any(_deciding(facts, g) for g in facts.context(node).guards)


@per_file
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


@per_file
def scored_names(facts: Facts) -> set[str]:
    names: set[str] = set()
    for node in deciders(facts):
        names |= names_in(node)
    for fn in scored_functions(facts):
        for ret in _returns(fn):
            names |= names_in(ret.value)
    for _, value, _ in facts.reward_prints:
        names |= names_in(value)
    return names
