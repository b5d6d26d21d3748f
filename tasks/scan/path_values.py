"""Path resolution: the path strings an expression may name, worked out without running the reward
(constants, `HOME / "x"`, `Path.home()`, f-strings, `os.path.join`, `.parent`, `expanduser`, the path
a file handle was opened on). facts.py classifies reads by these paths; the access rules check them.

What it cannot see: paths computed from data (a listing, a file's content): their parts are "*".
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable
from typing import Any

from tasks.scan.file_index import FileIndex
from tasks.scan.value_sets import MAX_SET, Unknown


class PathValues:
    """The path strings each expression of one file may name; `const` folds an expression."""

    def __init__(self, facts: FileIndex, const: Callable[[ast.AST], tuple[bool, Any]]) -> None:
        self.facts = facts
        self.const = const
        self._paths: dict[int, Any] = {}

    def paths(self, node: ast.AST) -> Any:
        """The path strings `node` may name ("*" for parts the scan cannot tell), "param" when it is a
        parameter of the enclosing function, or None."""
        if id(node) not in self._paths:
            self._paths[id(node)] = None  # cycles; and what an unknown or too deep path stays
            with contextlib.suppress(Unknown, RecursionError):
                self._paths[id(node)] = self._path(node, 0)
        return self._paths[id(node)]

    def _path(self, node: ast.AST, depth: int) -> Any:
        if depth > 12:
            return None
        f = self.facts
        if isinstance(node, ast.Constant):
            return frozenset({node.value}) if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            binds = f.bindings.get(node.id, [])
            if any(b.kind == "param" for b in binds):
                return "param"
            found: set[str] = set()
            for b in binds:
                if b.kind == "loop":
                    found.add("*")
                    continue
                if b.kind == "mutate":
                    continue
                sub = (
                    self._path(b.value, depth + 1)
                    if b.value is not None and b.kind in ("assign", "with", "walrus")
                    else None
                )
                if not isinstance(sub, frozenset):
                    return sub if sub == "param" else None
                found |= sub
            return frozenset(found) if found and len(found) <= MAX_SET else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.Add):
            left, right = self._path(node.left, depth + 1), self._path(node.right, depth + 1)
            if "param" in (left, right):
                return "param"
            left, right = left or frozenset({"*"}), right or frozenset({"*"})
            glue = _join_path if isinstance(node.op, ast.Div) else str.__add__
            return _combine(glue, [left, right])
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                sub = (
                    self._path(v.value, depth + 1)
                    if isinstance(v, ast.FormattedValue)
                    else self._path(v, depth + 1)
                )
                if sub == "param":
                    return "param"
                parts.append(sub or frozenset({"*"}))
            return _combine(lambda *xs: "".join(xs), parts)
        if isinstance(node, ast.Call):
            return self._call_path(node, depth)
        if isinstance(node, ast.Attribute) and (up := _UPWARD.get(node.attr)) is not None:
            sub = self._path(node.value, depth + 1)  # .parent, .anchor, .root: the way up to /
            return frozenset(_up(p, up) for p in sub) if isinstance(sub, frozenset) else sub
        if isinstance(node, ast.Attribute) and f.qualname(node) in OS_PATH_PARTS:
            return frozenset({OS_PATH_PARTS[f.qualname(node)]})
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "parents"
            and isinstance(i := self.const(node.slice)[1], int)
        ):  # Path.home().parents[1] is the root
            sub = self._path(node.value.value, depth + 1)
            return (
                frozenset(_up(p, i + 1 if i >= 0 else 99) for p in sub) if isinstance(sub, frozenset) else sub
            )
        if isinstance(node, ast.Subscript):
            if f.qualname(node.value) in {"os.environ", "environ"} and _is_const(node.slice, "HOME"):
                return frozenset({"/home/user"})
            ok, value = self.const(node)
            return frozenset({value}) if ok and isinstance(value, str) else None
        return None

    def _call_path(self, node: ast.Call, depth: int) -> Any:
        f = self.facts
        qual = f.qualname(node.func) or ""
        name = f.call_name(node)
        args = node.args
        if qual in {"pathlib.Path.home", "Path.home", "os.path.expanduser"} or name == "home":
            if name == "expanduser" and args:
                sub = self._path(args[0], depth + 1)
                return (
                    frozenset(p.replace("~", "/home/user", 1) for p in sub)
                    if isinstance(sub, frozenset)
                    else sub
                )
            return frozenset({"/home/user"})
        if (
            qual in {"os.getenv", "os.environ.get"}
            and args
            and isinstance(args[0], ast.Constant)
            and args[0].value == "HOME"
        ):
            return frozenset({"/home/user"})
        joins = {
            "pathlib.Path",
            "Path",
            "pathlib.PurePath",
            "PurePath",
            "pathlib.PosixPath",
            "PosixPath",
            "os.path.join",
            "posixpath.join",
        }
        if qual in joins or name == "joinpath":
            parts = [node.func.value] if name == "joinpath" and isinstance(node.func, ast.Attribute) else []
            parts += args
            if not parts:
                return frozenset({"."})
            subs = [self._path(p, depth + 1) for p in parts]
            if "param" in subs:
                return "param"
            return _combine(lambda *xs: _join_path(*xs), [s or frozenset({"*"}) for s in subs])
        if qual in {"os.path.dirname", "posixpath.dirname"} and args:
            sub = self._path(args[0], depth + 1)
            return frozenset(_up(p, 1) for p in sub) if isinstance(sub, frozenset) else sub
        if name in {"with_suffix", "resolve", "absolute", "expanduser", "with_stem"} and isinstance(
            node.func, ast.Attribute
        ):
            return self._path(node.func.value, depth + 1)
        if qual in {"str", "os.fspath", "os.path.abspath", "os.path.realpath", "os.path.normpath"} and args:
            return self._path(args[0], depth + 1)
        if f.call_kind(node) is not None:  # open(p), p.open(): a file handle names its path
            inner = f.read_path(node)
            return self._path(inner, depth + 1) if inner is not None and inner is not node else None
        ok, value = self.const(node)
        return frozenset({value}) if ok and isinstance(value, str) else None


_UPWARD = {"parent": 1, "anchor": 99, "root": 99}  # how many folders up (99: to the top)
OS_PATH_PARTS = {"os.pardir": "..", "os.curdir": ".", "os.sep": "/", "os.path.sep": "/"}


def _up(path: str, levels: int) -> str:
    """`path` `levels` folders up, as pathlib goes: /home/user -> /home -> /; x -> "." (relative)."""
    for _ in range(levels):
        if path in ("/", "."):
            break
        path = path.rstrip("/").rsplit("/", 1)[0] if "/" in path.rstrip("/") else "."
        path = path or "/"
    return path


def _is_const(node: ast.AST, value: Any) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def _join_path(*parts: str) -> str:
    out = ""
    for p in parts:
        out = p if p.startswith("/") or not out else out.rstrip("/") + "/" + p
    return out


def _combine(glue, sets: list[frozenset]) -> frozenset | None:
    combos: list[tuple] = [()]
    for s in sets:
        combos = [(*c, v) for c in combos for v in s if isinstance(v, str)]
        if len(combos) > MAX_SET:
            return None
    found = frozenset(glue(*c) for c in combos)
    return found or None
