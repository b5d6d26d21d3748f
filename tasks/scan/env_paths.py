"""The reward scanner's path rules: a grader reads the env under /home/user and nothing else.

- outside_env: literal paths outside the env (system folders, other homes, `..` escapes, the root);
  reached_paths.py checks the paths the scan computes.
- reads_generator_scripts: the information barrier (DESIGN.md §2): no mention of golden_patch.py /
  initial_setup.py and no looking next to its own file (`__file__`).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts

SYSTEM_DIRS = {
    "bin",
    "boot",
    "dev",
    "etc",
    "lib",
    "lib32",
    "lib64",
    "libx32",
    "media",
    "mnt",
    "opt",
    "proc",
    "root",
    "run",
    "sbin",
    "snap",
    "srv",
    "sys",
    "tmp",
    "usr",
    "var",
    "work",
    "workspace",
    "output",
    "data",
    "app",
    "private",
    "Users",
    "Volumes",
}
PATH_CALLS = {"Path", "PurePath", "PosixPath", "open", "listdir", "scandir", "walk", "glob", "chdir"}
GENERATOR_RE = re.compile(r"golden[_-]?patch|initial[_-]?setup", re.I)


def _strings(facts: Facts) -> Iterator[ast.Constant]:
    """String literals that can name something: not docstrings or bare string statements, not the
    tail of an f-string or of a concatenation onto something computed (`HUB + "/go"` is a URL)."""
    for node in facts.nodes:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        parent = facts.parents.get(node)
        if isinstance(parent, ast.Expr):
            continue
        if isinstance(parent, ast.JoinedStr) and parent.values[0] is not node:
            continue
        if (
            isinstance(parent, ast.BinOp)
            and isinstance(parent.op, ast.Add)
            and parent.right is node
            and not isinstance(parent.left, ast.Constant)
        ):
            continue
        yield node


def outside_env(facts: Facts) -> Iterator[Finding]:
    """Literal paths outside the env: system folders, other homes, `..` escapes, the filesystem root.
    Paths under /home/user, from HOME / Path.home() / expanduser("~"), and relative paths are fine."""
    for node in _strings(facts):
        reason = outside_reason(node.value, facts.parents.get(node), facts)
        if reason:
            yield Finding(
                rule="outside_env",
                line=node.lineno,
                message=f"path {node.value[:80]!r} {reason}; a reward may only read the env under /home/user",
            )


def outside_reason(text: str, parent: ast.AST | None, facts: Facts) -> str | None:
    if text.startswith("file://"):
        text = text[len("file://") :]
    if ".." in text.split("/") and len(text) < 4096:
        return "climbs out with `..`"
    if text == "/":
        in_path = (isinstance(parent, ast.Call) and facts.call_name(parent) in PATH_CALLS) or (
            isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div)
        )
        return "is the filesystem root" if in_path else None
    if not text.startswith("/") or text.startswith("//") or any(c in text for c in "\n:\\"):
        return None  # not a path: XPath (//w:t), regexes, prose
    parts = posixpath.normpath(text).split("/")[1:]
    if parts and parts[0] in SYSTEM_DIRS:
        return f"is in /{parts[0]}, outside the env"
    if parts and parts[0] == "home" and (len(parts) < 2 or parts[1] != "user"):
        return "is outside /home/user"
    return None


def reads_generator_scripts(facts: Facts) -> Iterator[Finding]:
    """The information barrier: a reward must not see golden_patch.py / initial_setup.py (the solution
    and the world recipe), whether by name or by looking next to its own file."""
    for node in _strings(facts):
        if match := GENERATOR_RE.search(node.value):
            yield Finding(
                rule="reads_generator_scripts",
                line=node.lineno,
                message=f"mentions {match.group(0)!r}: the reward must judge the state, not read the "
                "generator's scripts",
            )
    for node in facts.nodes:
        if isinstance(node, ast.Name) and node.id == "__file__":
            yield Finding(
                rule="reads_generator_scripts",
                line=node.lineno,
                message="uses `__file__`: files next to reward.py are the bundle's scripts "
                "(golden_patch.py, initial_setup.py), which the reward must not read",
            )
