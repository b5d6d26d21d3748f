"""Dependencies point one way (DESIGN.md §1, CONTRIBUTING.md): flows -> training -> tasks ->
{skills, infra, warehouse}. The contracts every layer shares (TaskSpec, the Policy protocol, ...)
have one low home, infra/contracts; training may use the pipeline's episode loop (tasks.rollout's
runner, bundles, batch rows and the desktops it runs on) and nothing else of tasks/; tasks never import training; infra,
warehouse and skills import nothing from tasks, training or flows. Imports inside functions (and
under `if TYPE_CHECKING:`) count too: a lazy import is still a dependency. No import cycles among the
project's modules, and flows/ defines no domain classes (only CLI/Prefect/logging glue)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from infra.settings import PROJECT_ROOT

PACKAGES = ("infra", "warehouse", "skills", "tasks", "training", "flows")

# package -> modules (dotted prefixes) it must never import
FORBIDDEN = {
    "infra": {"tasks", "flows", "skills", "training"},
    "warehouse": {"tasks", "flows", "skills", "training"},
    "skills": {"tasks", "flows", "warehouse", "training"},
    "training": {"tasks", "flows", "skills"},
    "tasks": {"flows", "training"},
}
# package -> modules it may import although FORBIDDEN names a package above them
# (the episode loop, on bundles, and the rows it writes — not the vocabulary: that is infra.contracts)
ALLOWED = {
    "training": {
        "tasks.rollout.runner",
        "tasks.rollout.bundles",
        "tasks.rollout.batch",
        "tasks.rollout.desktops",
    }
}

# The shared contracts: each is defined once, in the module named here, and nowhere else.
CONTRACTS = {
    "TaskSpec": "infra/contracts/task.py",
    "Platform": "infra/contracts/task.py",
    "Domain": "infra/contracts/task.py",
    "Difficulty": "infra/contracts/task.py",
    "Scenario": "infra/contracts/task.py",
    "Wording": "infra/contracts/task.py",
    "Observation": "infra/contracts/policy.py",
    "PolicyStep": "infra/contracts/policy.py",
    "Policy": "infra/contracts/policy.py",
    "StateView": "infra/envs/base.py",
    "Trajectory": "infra/trajectories.py",
    "TrajectoryStep": "infra/trajectories.py",
}

# What a class in flows/ may derive from: the CLI's, Prefect's and logging's own classes.
GLUE_MODULES = {"logging", "argparse", "click", "typer", "rich", "prefect"}


def _within(module: str, prefixes: set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def imported_modules(path: Path, package: str = "") -> set[tuple[str, int]]:
    """(module, line) of every import in `path`: `from a.b import c` gives a.b.c when that is a
    module of the project, else a.b; relative imports are resolved against `package`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(alias.name, node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add((full if _module_file(full) else base, node.lineno))
    return found


def _module_file(module: str) -> Path | None:
    path = PROJECT_ROOT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def project_modules() -> dict[str, Path]:
    modules = {}
    for top in PACKAGES:
        for path in (PROJECT_ROOT / top).rglob("*.py"):
            parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = {m for m, _ in imported_modules(path, package) if m in modules and m != name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules, as one cycle through it (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return [_cycle_in(group, graph) for group in groups]


def _cycle_in(group: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A path start -> ... -> start inside `group` (breadth first, so the shortest from `start`)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start} in {sorted(group)}")  # a group always has one


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_against_the_dependency_direction(package):
    files = sorted((PROJECT_ROOT / package).rglob("*.py"))
    assert files, f"no Python files under {package}/"
    offences = [
        f"{path.relative_to(PROJECT_ROOT)}:{line} imports {module}"
        for path in files
        for module, line in sorted(imported_modules(path))
        if _within(module, FORBIDDEN[package]) and not _within(module, ALLOWED.get(package, set()))
    ]
    assert not offences, "\n".join(offences)


def test_training_may_use_only_the_episode_loop_of_tasks(tmp_path):
    """The exception is exact: the runner, episodes on bundles and their rows — not tasks.models
    (training takes TaskSpec from infra.contracts) and not a module beside them."""
    allowed, other = tmp_path / "allowed.py", tmp_path / "other.py"
    allowed.write_text(
        "from tasks.rollout.runner import run_episode\nfrom tasks.rollout.bundles import bundle_tasks\n"
    )
    other.write_text("from tasks.models import TaskSpec\nimport tasks.rollout.llm_policy\n")
    verdict = {
        path.name: sorted(m for m, _ in imported_modules(path) if not _within(m, ALLOWED["training"]))
        for path in (allowed, other)
    }
    assert verdict == {"allowed.py": [], "other.py": ["tasks.models", "tasks.rollout.llm_policy"]}


def class_homes(name: str) -> list[str]:
    """Every file of the project (tests and bench aside) that defines a top-level class `name`."""
    homes = []
    for top in PACKAGES:
        for path in sorted((PROJECT_ROOT / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body):
                homes.append(str(path.relative_to(PROJECT_ROOT)))
    return homes


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_each_shared_contract_has_one_home(name):
    assert class_homes(name) == [CONTRACTS[name]]


def test_the_contracts_package_names_every_contract():
    """infra/contracts is where a reader (and training) finds them all, whatever their module."""
    import infra.contracts

    assert set(CONTRACTS) <= set(infra.contracts.__all__)
    for name, home in CONTRACTS.items():
        module = getattr(infra.contracts, name).__module__
        assert module == home.removesuffix(".py").replace("/", "."), name


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


def test_no_import_cycles_among_the_projects_modules():
    cycles = import_cycles(import_graph(project_modules()))
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_names_a_cycle_through_a_lazy_import():
    """The finder itself: a cycle closed by an import inside a function is found and named."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_imports_inside_functions_and_type_checking_blocks_count(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from training.gspo import Rollout\n"
        "def f():\n    from infra.envs.libvirt.provider import LibvirtProvider\n"
    )
    found = {m for m, _ in imported_modules(source)}
    assert {"training.gspo", "infra.envs.libvirt.provider"} <= found


def glue_offences(path: Path) -> list[str]:
    """Classes in `path` that derive from nothing of the CLI, Prefect or logging."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    origin = {}  # local name -> the module it was imported from
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            origin |= {(a.asname or a.name).split(".")[0]: a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            origin |= {a.asname or a.name: node.module for a in node.names}
    offences = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            roots = [ast.unparse(b).split(".")[0] for b in node.bases]
            modules = [origin.get(r, "") for r in roots]
            if not modules or not all(m.split(".")[0] in GLUE_MODULES for m in modules):
                offences.append(f"{path.name}:{node.lineno} class {node.name}({', '.join(roots)})")
    return offences


def test_flows_define_no_domain_classes():
    """Flows only wire (DESIGN §1): collectors, policies and models live in training/ or tasks/."""
    files = sorted((PROJECT_ROOT / "flows").rglob("*.py"))
    offences = [o for path in files for o in glue_offences(path)]
    assert not offences, "classes in flows/ that are not CLI/Prefect/logging glue:\n" + "\n".join(offences)


def test_the_glue_check_flags_a_collector(tmp_path):
    source = tmp_path / "training_flow.py"
    source.write_text(
        "import logging\nfrom training.config import GSPOConfig\n"
        "class Quiet(logging.Filter): ...\nclass EpisodeCollector: ...\nclass Params(GSPOConfig): ...\n"
    )
    assert glue_offences(source) == [
        "training_flow.py:4 class EpisodeCollector()",
        "training_flow.py:5 class Params(GSPOConfig)",
    ]
