"""Rewrites of the parsed reward into the equivalent forms the scan's analyses know, done once before
they run (tasks/scan/__init__.py). Each rewrite keeps Python's meaning and the source positions, so
findings still name the line the author wrote:

- `with contextlib.suppress(E): body` becomes `try: body / except E: pass`: the same error path,
  which the rules for error-path credit (score_from_exception) and for guards already follow.
- `getattr(obj, "name")(...)` becomes `obj.name(...)`, the name NFKC-normalised as the parser does
  for identifiers (`ｅｘｉｓｔｓ` is `exists`): a probe or read called through a string is the same
  call. Only the call form: a bare `getattr(obj, "name")` stays what dynamic_code looks at.

Identifiers themselves need no rewrite: the parser NFKC-normalises them (`ｏｐｅｎ`, `𝐨𝐩𝐞𝐧` are
`open` in the AST). Look-alikes NFKC does not fold (Cyrillic `о` in `оpen`) are other names at run
time (a NameError or AttributeError, or a local the scan analyses like any other), so they cannot
reach what the rules forbid.

Example:
    >>> tree = normalise(ast.parse('getattr(p, "exists")()'))
    >>> ast.unparse(tree)
    'p.exists()'
"""

from __future__ import annotations

import ast
import unicodedata


def normalise(tree: ast.Module) -> ast.Module:
    """`tree`, rewritten in place as described in the module docstring, and returned."""
    aliases = _aliases(tree)
    tree = _Rewriter(aliases).visit(tree)
    ast.fix_missing_locations(tree)
    return tree


def _aliases(tree: ast.Module) -> dict[str, str]:
    # just what the rewrites need: which local names are contextlib.suppress / contextlib
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "contextlib":
                    found[a.asname or a.name] = "contextlib"
        elif isinstance(node, ast.ImportFrom) and node.module == "contextlib":
            for a in node.names:
                if a.name == "suppress":
                    found[a.asname or a.name] = "contextlib.suppress"
    return found


class _Rewriter(ast.NodeTransformer):
    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases

    def visit_With(self, node: ast.With) -> ast.AST:
        self.generic_visit(node)
        index = next((i for i, item in enumerate(node.items) if self._suppress(item)), None)
        if index is None:
            return node
        item = node.items[index]
        inner: list[ast.stmt] = node.body
        if node.items[index + 1 :]:  # managers after suppress run inside it
            inner = [ast.copy_location(ast.With(items=node.items[index + 1 :], body=node.body), node)]
        caught = item.context_expr.args
        kind = caught[0] if len(caught) == 1 else ast.Tuple(elts=list(caught), ctx=ast.Load())
        handler = ast.ExceptHandler(type=kind, name=None, body=[ast.copy_location(ast.Pass(), node)])
        ast.copy_location(handler, node)
        guarded = ast.copy_location(ast.Try(body=inner, handlers=[handler], orelse=[], finalbody=[]), node)
        if index == 0:
            return guarded
        return ast.copy_location(ast.With(items=node.items[:index], body=[guarded]), node)

    def _suppress(self, item: ast.withitem) -> bool:
        call = item.context_expr
        if not (isinstance(call, ast.Call) and call.args and not call.keywords) or item.optional_vars:
            return False
        func = call.func
        if isinstance(func, ast.Name):
            return self.aliases.get(func.id) == "contextlib.suppress"
        return (
            isinstance(func, ast.Attribute)
            and func.attr == "suppress"
            and isinstance(func.value, ast.Name)
            and self.aliases.get(func.value.id) == "contextlib"
        )

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        inner = node.func
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Name)
            and inner.func.id == "getattr"
            and len(inner.args) == 2
            and not inner.keywords
            and isinstance(inner.args[1], ast.Constant)
            and isinstance(inner.args[1].value, str)
        ):
            name = unicodedata.normalize("NFKC", inner.args[1].value)
            if name.isidentifier():
                node.func = ast.copy_location(
                    ast.Attribute(value=inner.args[0], attr=name, ctx=ast.Load()), inner
                )
        return node
