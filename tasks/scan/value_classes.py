"""custom_value_class: a reward that redefines what its values mean. A class whose `__format__` or
`__str__` prints "1.0", whose `__eq__` or `__contains__` always holds, or whose `__float__` or
`__add__` answers what it likes makes the REWARD line and the checks say something other than what
the state gave, and the data flow of the other rules cannot see it (an f-string of a `Score` looks
like an f-string of a float). A grader needs none of this: numbers, strings, dicts and dataclasses
print and compare as Python defines them.

Flagged: such a method defined in a class body (`def __eq__`, `__str__ = lambda self: "1.0"`),
assigned onto a class or object afterwards (`Score.__format__ = ...`, `setattr(Score, "__eq__",
...)`), or put in the namespace of `type(name, bases, {...})`. `__init__`, `__post_init__`,
`__enter__`/`__exit__`, `__iter__` and `__getitem__` are fine (they build and walk values, they do
not change what a value is).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts

ARITHMETIC = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow")
VALUE_METHODS = frozenset(
    {
        # how it prints
        "__format__",
        "__str__",
        "__repr__",
        # how it compares and tests
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__bool__",
        "__len__",
        "__contains__",
        "__instancecheck__",
        "__subclasscheck__",
        # what number it is
        "__float__",
        "__int__",
        "__index__",
        "__round__",
        "__trunc__",
        "__floor__",
        "__ceil__",
        "__abs__",
        "__neg__",
        "__pos__",
        "__complex__",
        # how it combines (x + y, y + x, x += y)
        *(f"__{side}{op}__" for op in ARITHMETIC for side in ("", "r", "i")),
    }
)


def custom_value_class(facts: Facts) -> Iterator[Finding]:
    """Value methods defined in a class, assigned onto one, or given to `type(...)` (module docstring)."""
    for node in facts.nodes:
        for line, where, name in _defined(facts, node):
            yield Finding(
                rule="custom_value_class",
                line=line,
                message=f"{where} defines `{name}`: a value that prints, compares or converts as it "
                "likes makes the REWARD line and the checks mean something other than what the state "
                "gave; use plain numbers and strings",
            )


def _defined(facts: Facts, node: ast.AST) -> Iterator[tuple[int, str, str]]:
    if isinstance(node, ast.ClassDef):
        for stmt in node.body:
            for name in _stmt_names(stmt):
                if name in VALUE_METHODS:
                    yield stmt.lineno, f"class `{node.name}`", name
    elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and t.attr in VALUE_METHODS:
                yield node.lineno, f"`{ast.unparse(t)[:40]} = ...`", t.attr
    elif isinstance(node, ast.Call):
        name = facts.call_name(node)
        if name == "setattr" and len(node.args) >= 2 and _text(node.args[1]) in VALUE_METHODS:
            yield node.lineno, "`setattr(...)`", _text(node.args[1])
        elif name == "type" and len(node.args) == 3 and isinstance(node.args[2], ast.Dict):
            for key in node.args[2].keys:
                if _text(key) in VALUE_METHODS:
                    yield node.lineno, "`type(...)`", _text(key)


def _stmt_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
        return [stmt.name]
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
