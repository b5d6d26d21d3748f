"""Walking the reward's AST: the node kinds that open a scope or define something, and walks that
cache each node's children (the scan walks the same small tree many times)."""

from __future__ import annotations

import ast

SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCS = ast.FunctionDef | ast.AsyncFunctionDef
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def kids(node: ast.AST) -> list[ast.AST]:
    """ast.iter_child_nodes, computed once per node (the scan walks the same small tree many times)."""
    try:
        return node._kids
    except AttributeError:
        node._kids = found = list(ast.iter_child_nodes(node))
        return found


def breadth_first(tree: ast.AST) -> list[ast.AST]:
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


def flat_targets(target: ast.AST):
    """The single targets inside an assignment target: `a, (b.x, *c)` gives a, b.x and c."""
    if isinstance(target, ast.Tuple | ast.List):
        for elt in target.elts:
            yield from flat_targets(elt)
    elif isinstance(target, ast.Starred):
        yield from flat_targets(target.value)
    else:
        yield target
