"""Dependencies point one way (DESIGN.md §1, CONTRIBUTING.md): flows -> tasks -> {skills.kit, infra,
warehouse}; skills -> {skills.kit, infra}; training -> {infra, warehouse}. Imports inside functions
count too: a lazy import is still a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from infra.settings import PROJECT_ROOT

# package -> top-level packages it must never import
FORBIDDEN = {
    "infra": {"tasks", "flows", "skills", "training"},
    "warehouse": {"tasks", "flows", "skills", "training"},
    "skills": {"tasks", "flows", "warehouse", "training"},
    "training": {"tasks", "flows", "skills"},
    "tasks": {"flows", "training"},
}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(alias.name.split(".")[0], node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add((node.module.split(".")[0], node.lineno))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_against_the_dependency_direction(package):
    files = sorted((PROJECT_ROOT / package).rglob("*.py"))
    assert files, f"no Python files under {package}/"
    offences = [
        f"{path.relative_to(PROJECT_ROOT)}:{line} imports {top}"
        for path in files
        for top, line in sorted(imported_packages(path))
        if top in FORBIDDEN[package]
    ]
    assert not offences, "\n".join(offences)


def test_the_family_kit_needs_no_app():
    """skills/kit is what every family depends on; it must not depend on any app's families."""
    kit = PROJECT_ROOT / "skills" / "kit"
    apps = {p.name for p in (PROJECT_ROOT / "skills").iterdir() if p.is_dir() and p.name != "kit"}
    offences = []
    for path in kit.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("skills.") and module.split(".")[1] in apps:
                offences.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno} imports {module}")
    assert not offences, "\n".join(offences)
