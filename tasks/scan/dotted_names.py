"""What a reward imports and calls, by dotted name (`from os import system` imports `os.system`;
`sp.run(...)` after `import subprocess as sp` calls `subprocess.run`): the access rules match these
names against the modules and calls a grader may not use."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.scan.credit import Facts


def under(module: str, roots: tuple[str, ...]) -> bool:
    return any(module == r or module.startswith(r + ".") for r in roots)


def imported_names(facts: Facts) -> Iterator[tuple[ast.AST, str]]:
    """(node, dotted name) for every import; `from os import system` yields `os.system`."""
    for node in facts.nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node, node.module
            for alias in node.names:
                yield node, f"{node.module}.{alias.name}"


def called_names(facts: Facts) -> Iterator[tuple[ast.Call, str]]:
    for node in facts.nodes:
        if isinstance(node, ast.Call) and (qual := facts.qualname(node.func)):
            yield node, qual
