"""patches_grader: the grading machinery stays as written, so the scan's verdict on the checks holds.

It looks at bindings: a rewardkit name (component, precondition, grade, _evaluate, _COMPONENTS,
_PRECONDITIONS) bound twice or mutated outside the kit's own `register`, a module-level function
defined twice, a builtin the kit relies on rebound at module level (`min = ...`), an attribute stored
on an imported module or class (`json.load = ...`, `Path.exists = ...`), an edit of `sys.modules` or
the import machinery, or a function's `__code__` replaced.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.syntax import FUNCS, flat_targets

KIT_NAMES = {"component", "precondition", "grade", "_evaluate", "_COMPONENTS", "_PRECONDITIONS"}
KIT_LISTS = {"_COMPONENTS", "_PRECONDITIONS"}
# builtins rewardkit's grade() and _evaluate() call: rebinding one at module level changes the verdict
KIT_BUILTINS = {
    "print",
    "min",
    "max",
    "sum",
    "round",
    "float",
    "int",
    "bool",
    "isinstance",
    "type",
    "repr",
    "Exception",
    "BaseException",
    "FileNotFoundError",
}
IMPORT_SYSTEM = {"sys.modules", "sys.meta_path", "sys.path_hooks", "sys.path", "sys.path_importer_cache"}


def _finding(rule: str, node: ast.AST, message: str) -> Finding:
    return Finding(rule=rule, line=getattr(node, "lineno", 1), message=message)


def _module_bindings(facts: Facts) -> dict[str, list[ast.AST]]:
    """Module-level bindings of each name, and bindings through `global` in functions."""
    declared = {
        name: fn
        for node in facts.nodes
        if isinstance(node, ast.Global)
        for name in node.names
        for fn in [facts.scope_of(node)]
    }
    out: dict[str, list[ast.AST]] = {}
    for node in facts.nodes:
        names: list[str] = []
        if isinstance(node, FUNCS | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store | ast.Del)
            and not _comprehension_target(facts, node)
        ):
            names = [node.id]
        if not names:
            continue
        scope = facts.scope_of(node)
        for name in names:
            if scope is facts.tree or declared.get(name) is scope:
                out.setdefault(name, []).append(node)
    return out


def _comprehension_target(facts: Facts, node: ast.AST) -> bool:
    """A comprehension's loop variable: it has its own scope."""
    parent = facts.parents.get(node)
    while isinstance(parent, ast.Tuple | ast.List | ast.Starred):
        node, parent = parent, facts.parents.get(parent)
    return isinstance(parent, ast.comprehension) and parent.target is node


def _inside_def(facts: Facts, node: ast.AST, names: set[str]) -> bool:
    scope = facts.scope_of(node)
    while scope is not facts.tree:
        if isinstance(scope, FUNCS) and scope.name in names:
            return True
        scope = facts.scope_of(scope)
    return False


def patches_grader(facts: Facts) -> Iterator[Finding]:
    """Rebinding or mutating what grades: see the module docstring."""
    why = "the checks must run as written, so the scan's verdict on them holds"
    binds = _module_bindings(facts)
    has_kit = any(
        isinstance(n, FUNCS) and facts.scope_of(n) is facts.tree for n in binds.get("component", [])
    ) or any(isinstance(n, FUNCS) for n in binds.get("grade", []))
    for name, nodes in sorted(binds.items()):
        kit = has_kit and name in KIT_NAMES
        # a function defined twice, or defined and assigned: the analysis would merge the two, the run
        # keeps the last. Decorated defs are registered components, each kept by the registry.
        redefined = any(isinstance(n, FUNCS) for n in nodes) and not all(
            isinstance(n, FUNCS) and n.decorator_list for n in nodes
        )
        if len(nodes) > 1 and (kit or redefined):
            later = sorted(nodes, key=lambda n: (n.lineno, n.col_offset))[1]
            what = "a rewardkit name" if kit else "a module-level function"
            yield _finding("patches_grader", later, f"rebinds `{name}`, {what} already defined: {why}")
        elif name in {"print", "__import__", "__build_class__"} or (has_kit and name in KIT_BUILTINS):
            yield _finding(
                "patches_grader",
                nodes[0],
                f"rebinds the builtin `{name}` at module level, which the grader's own code calls: {why}",
            )
    for node in facts.nodes:
        yield from _patch_at(facts, node, has_kit, why)


def _patch_at(facts: Facts, node: ast.AST, has_kit: bool, why: str) -> Iterator[Finding]:
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    for target in targets:
        for t in flat_targets(target):
            if isinstance(t, ast.Attribute | ast.Subscript):
                yield from _store_on(facts, t, has_kit, why)
    if isinstance(node, ast.Call):
        qual = facts.qualname(node.func) or ""
        name = facts.call_name(node)
        if name in {"setattr", "delattr"} and isinstance(node.func, ast.Name) and node.args:
            what = _patchable(facts, node.args[0])
            if what:
                yield _finding("patches_grader", node, f"{name} on {what}: {why}")
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if receiver is not None:
            base = facts.qualname(receiver)
            if base in IMPORT_SYSTEM and name not in {
                "get",
                "keys",
                "values",
                "items",
                "copy",
                "index",
                "count",
            }:
                yield _finding("patches_grader", node, f"edits `{base}` (`{qual}`): {why}")
            elif (
                has_kit
                and isinstance(receiver, ast.Name)
                and receiver.id in KIT_LISTS
                and not (name == "append" and _inside_def(facts, node, {"component", "precondition"}))
                and name not in {"copy", "index", "count"}
            ):
                yield _finding(
                    "patches_grader",
                    node,
                    f"`{receiver.id}.{name}(...)` changes the registered checks outside rewardkit's own "
                    f"component()/precondition(): {why}",
                )


def _store_on(
    facts: Facts, target: ast.Attribute | ast.Subscript, has_kit: bool, why: str
) -> Iterator[Finding]:
    base = target.value
    if facts.qualname(base) in IMPORT_SYSTEM or facts.qualname(target) in IMPORT_SYSTEM:
        yield _finding("patches_grader", target, f"edits `{ast.unparse(target)[:40]}`: {why}")
        return
    if isinstance(target, ast.Subscript):
        if has_kit and isinstance(base, ast.Name) and base.id in KIT_LISTS:
            yield _finding(
                "patches_grader", target, f"replaces entries of `{base.id}`, the registered checks: {why}"
            )
        return
    what = _patchable(facts, base)
    if what and not (facts.qualname(target) or "").startswith(("pandas.options", "pd.options")):
        yield _finding("patches_grader", target, f"stores `{ast.unparse(target)[:50]}` on {what}: {why}")


def _patchable(facts: Facts, node: ast.AST) -> str | None:
    """What storing an attribute on `node` would patch: an imported module or class, a function."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    name = root.id
    if name in facts.aliases and name not in facts.rebound:
        return f"the imported `{ast.unparse(node)[:40]}`"
    if name in facts.functions and name not in facts.rebound:
        return f"the function `{name}`"
    if name in {"__builtins__", "builtins"}:
        return "the builtins"
    return None
