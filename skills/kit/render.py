"""Guest functions -> self-contained scripts (initial_setup.py, golden_patch.py, reward.py, …).

A rendered script is the standard library and the allowed libraries only, never an import of cuagym,
so the same file runs in our sandbox and in an OSWorld VM. It holds, in order: a header defining
`json`, `Path`, `HOME` and `P` (the instance's params), the reward kit (rewards only), every guest
function the entry point reaches, the entry point, and a `__main__` call.

What may be shipped is decided by where it lives: functions of the family's own module (except its
host-side `draw`) and functions of the modules under `skills/kit/guest/`. A guest function that
reaches anything else — a module constant, a host helper, an imported name — fails the render with
the family and the name (`check_free_names`), instead of a `check_error` inside the sandbox.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import symtable
import textwrap
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import FunctionType, ModuleType

from infra.errors import ConfigError

GUEST_PACKAGE = "skills.kit.guest"
REWARDKIT_MODULE = f"{GUEST_PACKAGE}.rewardkit"
HOST_ONLY = frozenset({"draw", "demonstrate"})  # a family module's host-side functions: never shipped
HEADER_NAMES = frozenset({"json", "Path", "HOME", "P"})


@cache
def rewardkit_source() -> str:
    path = Path(__file__).with_name("guest") / "rewardkit.py"
    body = path.read_text(encoding="utf-8").split('"""', 2)[2].lstrip()  # drop the docstring
    return "\n".join(line for line in body.splitlines() if not line.startswith("from __future__"))


REWARDKIT_BANNER = "# --- rewardkit: weighted, guarded components ---"
REWARDKIT_NAMES = frozenset({"component", "precondition", "grade"})
_COLLAPSED_KIT = "{banner}\n# [the standard reward helper, verbatim: {lines} lines defining component, precondition, grade]"


def _defined_names(tree: ast.Module) -> set[str]:
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)} | {
        t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    }


def with_rewardkit(source: str) -> str:
    """`source` with the reward helper above it when it uses the helper without defining it.

    An LLM Discriminator is shown the helper's interface, not its 100 lines (tokens per tuple), and
    need not copy it: the shipped reward.py is still one self-contained file, and the helper in it is
    the tested one, not a transcription. A source that defines any of the helper's names itself (its
    own copy, or its own grader) is left as written, and so is one that does not parse (the caller's
    syntax check reports it)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if not (used & REWARDKIT_NAMES) or _defined_names(tree) & REWARDKIT_NAMES:
        return source
    future, body = _split_future_imports(source)
    return "".join([future, REWARDKIT_BANNER, "\n", rewardkit_source().rstrip("\n"), "\n\n\n", body])


def _split_future_imports(source: str) -> tuple[str, str]:
    """(the leading lines up to the last `from __future__` import, the rest): a future import must
    stay first, so the helper goes after it."""
    lines = source.splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if line.startswith("from __future__")), default=-1)
    return "".join(lines[: last + 1]), "".join(lines[last + 1 :])


def collapse_rewardkit(source: str) -> str:
    """`source` with a verbatim copy of the reward helper shown as one line (what a critic or judge
    reads: the helper is the same tested code in every reward.py; only the checks need reading)."""
    kit = rewardkit_source().rstrip("\n")
    shown = _COLLAPSED_KIT.format(banner=REWARDKIT_BANNER, lines=kit.count("\n") + 1)
    for verbatim in (f"{REWARDKIT_BANNER}\n{kit}", kit):
        if verbatim in source:
            return source.replace(verbatim, shown, 1)
    return source


def function_source(fn: Callable) -> str:
    return textwrap.dedent(inspect.getsource(fn)).strip() + "\n"


def _shippable(fn: object, family_module: ModuleType) -> bool:
    if not isinstance(fn, FunctionType):
        return False
    if fn.__module__ == family_module.__name__:
        return fn.__name__ not in HOST_ONLY
    return fn.__module__.startswith(GUEST_PACKAGE + ".") and fn.__module__ != REWARDKIT_MODULE


def _loaded_names(fn: FunctionType) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(function_source(fn))) if isinstance(n, ast.Name)}


def reached_helpers(entry: FunctionType, family_module: ModuleType) -> list[FunctionType]:
    """Guest functions `entry` reaches, directly or through each other, each resolved in the module
    it was defined in; in a stable order (kit helpers first, then the family's own, by line)."""
    found: dict[str, FunctionType] = {}
    frontier = [entry]
    while frontier:
        fn = frontier.pop()
        for name in _loaded_names(fn):
            target = fn.__globals__.get(name)
            if name == entry.__name__ or not _shippable(target, family_module):
                continue
            if name in found:
                if found[name] is not target:
                    raise ConfigError(
                        f"two guest functions named {name!r} ({found[name].__module__} and "
                        f"{target.__module__})",
                        hint="rename one of them",
                    )
                continue
            found[name] = target
            frontier.append(target)
    return sorted(
        found.values(),
        key=lambda f: (f.__module__ == family_module.__name__, f.__module__, f.__code__.co_firstlineno),
    )


def render_script(
    kind: str,
    entry: FunctionType,
    call: str,
    *,
    params: dict,
    title: str,
    family_module: ModuleType,
    family_id: str,
) -> str:
    """The whole script for `entry`, ending in `call` (e.g. `solve(P, mistake="absolute_refs")`)."""
    header = "\n".join(
        [
            "#!/usr/bin/env python3",
            f'"""{kind}.py for {title}. Generated; self-contained."""',
            "",
            "import json",
            "from pathlib import Path",
            "",
            'HOME = Path("/home/user")',
            f"P = json.loads({json.dumps(params, sort_keys=True)!r})",
        ]
    )
    parts = [header]
    if kind == "reward":
        parts.append(REWARDKIT_BANNER + "\n" + rewardkit_source())
    parts += [function_source(h) for h in reached_helpers(entry, family_module)]
    parts.append(function_source(entry))
    main = f"    {call}\n" + ("    raise SystemExit(grade())\n" if kind == "reward" else "")
    parts.append('if __name__ == "__main__":\n' + main)
    script = "\n\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    check_free_names(script, family_id=family_id, kind=kind)
    return script


def check_free_names(script: str, *, family_id: str, kind: str) -> None:
    """Refuse a script in which some function reads a global name the script never defines."""
    try:
        table = symtable.symtable(script, f"{kind}.py", "exec")
    except SyntaxError as exc:
        raise ConfigError(
            f"family {family_id}: {kind}.py does not compile: {exc}", hint="check the guest functions' source"
        ) from None
    defined = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    known = defined | set(dir(builtins)) | {"__name__", "__file__"}
    for scope, name in _global_reads(table):
        if name not in known:
            raise ConfigError(
                f"family {family_id}: {scope}() in {kind}.py reads {name!r}, which the script does not define",
                hint="guest functions see only json, Path, HOME, P and other guest functions: import inside the "
                "function, pass the value through P, or move the helper to the family module or skills/kit/guest/",
            )


def _global_reads(table: symtable.SymbolTable, owner: str = "") -> list[tuple[str, str]]:
    reads = []
    for child in table.get_children():
        name = child.get_name() if child.get_type() == "function" and not owner else owner or child.get_name()
        for sym in child.get_symbols():
            if sym.is_referenced() and sym.is_global() and not sym.is_assigned():
                reads.append((name, sym.get_name()))
        reads += _global_reads(child, name)
    return reads
