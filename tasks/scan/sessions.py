"""foreign_session: a hub request for a session other than the env's own. The env gives the reward
its session in CUAGYM_SID (DESIGN.md §3.3); another session (`SID + "x"`, `f"...?sid={SID}_ref"`,
a literal `sid="seed"`) is someone else's state, or one the setup seeded with the answer, and
comparing with it is an oracle. (The hub refuses such reads too; this catches the reward before it
ships.) access.network already requires the URL to be the hub's.

The env's own sid is: `os.environ["CUAGYM_SID"]`, `os.environ.get` / `os.getenv` of it (a default
after it is a fallback), the bundle placeholder `__CUAGYM_SID__`, those through `str`, `.strip()`
and `quote`, names bound only to such values, and parameters every call site fills with one.

Checked in every hub request: the `sid` entry of `params` (a dict literal, `dict(sid=...)`, or a
name bound to one), and the URL's text: what follows `sid=` must be the env's sid and nothing after
it that extends it, and no part of the URL may be computed from the sid (`{SID}x`, `{SID[::-1]}`).

What it cannot see: a sid built through containers or helpers the data flow loses (then the value
is not recognised as the env's, and the request is flagged: the safe side).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.hub_network import url_arg
from tasks.scan.syntax import walk

SID_VAR = "CUAGYM_SID"
SID_PLACEHOLDER = "__CUAGYM_SID__"
SID_CHAR = re.compile(r"[A-Za-z0-9_-]")
ENV_GETS = {"os.environ.get", "environ.get", "os.getenv", "getenv"}
KEEPS = {"str", "quote", "urllib.parse.quote", "parse.quote", "quote_plus", "urllib.parse.quote_plus"}


def foreign_session(facts: Facts) -> Iterator[Finding]:
    """Hub requests whose session is not CUAGYM_SID (module docstring)."""
    flow = _SidFlow(facts)
    for call in (n for n in facts.nodes if isinstance(n, ast.Call) and facts.is_request(n)):
        for node, why in [*_param_sids(facts, flow, call), *_url_sids(facts, flow, call)]:
            yield Finding(
                rule="foreign_session",
                line=node.lineno,
                message=f"hub request with session {why}, not the env's own os.environ[{SID_VAR!r}]: "
                "another session's state is not this task's, and reading it is an oracle",
            )


def _param_sids(facts: Facts, flow: _SidFlow, call: ast.Call) -> Iterator[tuple[ast.AST, str]]:
    params = next((k.value for k in call.keywords if k.arg == "params"), None)
    for value in _sid_entries(facts, params, depth=0):
        yield from flow.offences(value)


def _sid_entries(facts: Facts, node: ast.AST | None, depth: int) -> list[ast.AST]:
    if isinstance(node, ast.Dict):
        return [v for k, v in zip(node.keys, node.values, strict=True) if _is_text(k, "sid")]
    if isinstance(node, ast.Call) and facts.call_name(node) == "dict":
        return [k.value for k in node.keywords if k.arg == "sid"]
    if isinstance(node, ast.Name) and depth < 4:
        return [
            v
            for b in facts.bindings.get(node.id, [])
            if b.kind == "assign"
            for v in _sid_entries(facts, b.value, depth + 1)
        ]
    return []


def _url_sids(facts: Facts, flow: _SidFlow, call: ast.Call) -> Iterator[tuple[ast.AST, str]]:
    parts = _flatten(facts, url_arg(facts, call), depth=0)
    for i, part in enumerate(parts):
        after = parts[i + 1] if i + 1 < len(parts) else ""
        if isinstance(part, str):
            for m in re.finditer(r"[?&]sid=([^&#]*)", part):
                if m.group(1):  # a literal session id in the query
                    yield call, f"sid={m.group(1)!r} written into the URL"
            continue
        if flow.carries(part):
            if not flow.exact(part):
                yield part, f"`{ast.unparse(part)[:40]}`, computed from it"
            elif isinstance(after, str) and SID_CHAR.match(after):
                yield part, f"`{{{ast.unparse(part)[:30]}}}{after[:10]}`, the env's sid with more after it"
        elif i > 0 and isinstance(parts[i - 1], str) and re.search(r"[?&]sid=$", parts[i - 1]):
            yield part, f"`{ast.unparse(part)[:40]}`"


def _flatten(facts: Facts, node: ast.AST | None, depth: int) -> list:
    """A URL as text and computed parts, in order: f-strings, `+` and names bound once to either."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out: list = []
        for v in node.values:
            out += [v.value] if isinstance(v, ast.Constant) else _flatten(facts, v.value, depth + 1)
        return _merge(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _merge(_flatten(facts, node.left, depth + 1) + _flatten(facts, node.right, depth + 1))
    if isinstance(node, ast.Name) and depth < 4:
        binds = facts.bindings.get(node.id, [])
        if (
            len(binds) == 1
            and binds[0].kind == "assign"
            and isinstance(binds[0].value, ast.JoinedStr | ast.BinOp)
        ):
            return _flatten(facts, binds[0].value, depth + 1)
    return [node] if node is not None else []


def _merge(parts: list) -> list:
    out: list = []
    for p in parts:
        if isinstance(p, str) and out and isinstance(out[-1], str):
            out[-1] += p
        else:
            out.append(p)
    return out


class _SidFlow:
    """Which expressions are the env's own sid (`exact`), and which are computed from it (`carries`)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.seen: set[str] = set()

    def offences(self, value: ast.AST) -> Iterator[tuple[ast.AST, str]]:
        """Why a `sid` value is not the env's own: the value itself, or the call sites filling it."""
        if isinstance(value, ast.Name) and self._params(value.id):
            for site, given in self._param_sites(value.id):
                if not self.exact(given):
                    yield site, f"`{ast.unparse(given)[:40]}` (passed as `{value.id}`)"
        elif not self.exact(value):
            yield value, f"`{ast.unparse(value)[:40]}`"

    def exact(self, node: ast.AST | None) -> bool:
        f = self.facts
        if isinstance(node, ast.Constant):
            return node.value == SID_PLACEHOLDER
        if isinstance(node, ast.Subscript):
            return f.qualname(node.value) in {"os.environ", "environ"} and _is_text(node.slice, SID_VAR)
        if isinstance(node, ast.JoinedStr):  # f"{SID}"
            return (
                len(node.values) == 1
                and isinstance(node.values[0], ast.FormattedValue)
                and node.values[0].format_spec is None
                and self.exact(node.values[0].value)
            )
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return self.exact(node.values[0])  # a literal fallback after the env var is a default
        if isinstance(node, ast.IfExp):
            return self.exact(node.body) and self.exact(node.orelse)
        if isinstance(node, ast.Call):
            qual = f.qualname(node.func) or ""
            if qual in ENV_GETS:
                return bool(node.args) and _is_text(node.args[0], SID_VAR)
            if qual in KEEPS and len(node.args) == 1:
                return self.exact(node.args[0])
            func = node.func
            return isinstance(func, ast.Attribute) and func.attr == "strip" and self.exact(func.value)
        if isinstance(node, ast.Name):
            return self._name(node.id, self.exact)
        return False

    def carries(self, node: ast.AST | None) -> bool:
        """Is the env's sid part of what `node` computes?"""
        for sub in walk(node) if node is not None else ():
            if isinstance(sub, ast.Name) and self._name(sub.id, self.carries, exact_only=False):
                return True
            if not isinstance(sub, ast.Name) and self.exact(sub):
                return True
        return False

    def _name(self, name: str, test, exact_only: bool = True) -> bool:
        if name in self.seen:
            return exact_only  # a cycle (SID = SID.strip()) adds nothing; the other bindings decide
        self.seen.add(name)
        try:
            binds = self.facts.bindings.get(name, [])
            every = all if exact_only else any
            if self._params(name):
                return every(test(given) for _, given in self._param_sites(name))
            values = [b.value for b in binds if b.kind in ("assign", "with", "walrus")]
            if not values or len(values) != len(binds):
                return False
            return every(map(test, values))
        finally:
            self.seen.discard(name)

    def _params(self, name: str) -> bool:
        binds = self.facts.bindings.get(name, [])
        return bool(binds) and all(b.kind == "param" for b in binds)

    def _param_sites(self, name: str) -> list[tuple[ast.Call, ast.AST]]:
        # def current(sid): ... params={"sid": sid}  ->  what each current(...) call passes
        found = []
        for b in self.facts.bindings.get(name, []):
            arg = b.node
            fn = self.facts.parents.get(self.facts.parents.get(arg))
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            positional = [*fn.args.posonlyargs, *fn.args.args]
            index = next((i for i, a in enumerate(positional) if a is arg), None)
            defaults = dict(
                zip(positional[len(positional) - len(fn.args.defaults) :], fn.args.defaults, strict=True)
            )
            for site in self.facts.nodes:
                if not (
                    isinstance(site, ast.Call) and isinstance(site.func, ast.Name) and site.func.id == fn.name
                ):
                    continue
                given = next((k.value for k in site.keywords if k.arg == arg.arg), None)
                if given is None and index is not None and index < len(site.args):
                    given = site.args[index]
                found.append((site, given if given is not None else defaults.get(arg)))
        return found


def _is_text(node: ast.AST | None, text: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == text
