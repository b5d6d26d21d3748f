"""network: the only network a reward may use is the hub's state API (DESIGN.md §3.1), through
`requests` and a URL built from the CUAGYM_HUB_URL environment variable (or the bundle placeholder).
Raw sockets, urllib and other clients are not allowed at all.

A request whose URL the scan cannot trace to CUAGYM_HUB_URL is flagged: a hub URL built by code it
cannot follow is a false alarm, never a miss.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.dotted_names import called_names, imported_names, under
from tasks.scan.syntax import walk

NETWORK_MODULES = (
    "socket",
    "ssl",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "telnetlib",
    "nntplib",
    "socketserver",
    "xmlrpc",
    "httpx",
    "aiohttp",
    "urllib3",
    "websocket",
    "websockets",
    "paramiko",
    "pycurl",
    "webbrowser",
    "http.client",
    "http.server",
    "urllib.request",
    "urllib.robotparser",
)
HUB_VAR = "CUAGYM_HUB_URL"
HUB_PLACEHOLDER = "__CUAGYM_HUB_URL__"  # bundles keep it until run time (DESIGN.md §3.1)


def network(facts: Facts) -> Iterator[Finding]:
    """Network access other than the hub. `requests` is allowed when its URL is built from the
    CUAGYM_HUB_URL environment variable (or the bundle placeholder); raw sockets, urllib and other
    clients are not allowed at all."""
    flagged = set()
    for node, name in imported_names(facts):
        if under(name, NETWORK_MODULES):
            flagged.add(name)
            yield Finding(
                rule="network",
                line=node.lineno,
                message=f"imports `{name}`: the only network a reward may use is the hub, via requests",
            )
    for call, qual in called_names(facts):
        if under(qual, NETWORK_MODULES) and not any(under(qual, (f,)) for f in flagged):
            yield Finding(
                rule="network", line=call.lineno, message=f"calls `{qual}`: only the hub may be reached"
            )
    hub = _HubFlow(facts)
    for call in (n for n in facts.nodes if isinstance(n, ast.Call) and facts.is_request(n)):
        url = url_arg(facts, call)
        if url is None or not hub.derived(url):
            shown = "no URL" if url is None else f"`{ast.unparse(url)[:80]}`"
            yield Finding(
                rule="network",
                line=call.lineno,
                message=f"request to {shown}, which is not built from os.environ[{HUB_VAR!r}]: "
                "rewards may only query the hub's state API",
            )


def url_arg(facts: Facts, call: ast.Call) -> ast.expr | None:
    position = 1 if facts.call_name(call) == "request" else 0
    keyword = next((k.value for k in call.keywords if k.arg == "url"), None)
    return call.args[position] if len(call.args) > position else keyword


class _HubFlow:
    """Which expressions carry the hub URL: environment reads of CUAGYM_HUB_URL, names bound only to
    such values, strings that start with one (f-strings, +, %, format, urljoin) and function
    parameters that every call site fills with one."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.seen: set[str] = set()

    def derived(self, node: ast.AST | None) -> bool:
        f = self.facts
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value.startswith(HUB_PLACEHOLDER)
        if isinstance(node, ast.Subscript):
            return f.qualname(node.value) in {"os.environ", "environ"} and _is_hub_var(node.slice)
        if isinstance(node, ast.JoinedStr):
            return (
                bool(node.values)
                and isinstance(node.values[0], ast.FormattedValue)
                and self.derived(node.values[0].value)
            )
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.derived(node.left)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            first = (
                node.right.elts[0] if isinstance(node.right, ast.Tuple) and node.right.elts else node.right
            )
            return _starts_with_slot(node.left, "%s") and self.derived(first)
        if isinstance(node, ast.IfExp):
            return self.derived(node.body) and self.derived(node.orelse)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return self.derived(node.values[0])  # a literal fallback after the env var is a default
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.Call):
            return self._call(node)
        return False

    def _call(self, node: ast.Call) -> bool:
        f, qual = self.facts, self.facts.qualname(node.func) or ""
        if qual in {"os.environ.get", "environ.get", "os.getenv", "getenv"}:
            return bool(node.args) and _is_hub_var(node.args[0])
        if qual.rsplit(".", 1)[-1] == "urljoin" and len(node.args) >= 2:
            absolute = isinstance(node.args[1], ast.Constant) and re.match(
                r"^(\w+:)?//", str(node.args[1].value)
            )
            return self.derived(node.args[0]) and not absolute
        if qual in {"str"} and node.args:
            return self.derived(node.args[0])
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in {"rstrip", "strip", "removesuffix"}:
            return self.derived(func.value)
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "join"
            and node.args
            and isinstance(node.args[0], ast.List | ast.Tuple)
            and node.args[0].elts
        ):  # "/".join([HUB, "go"])
            return _starts_with_slot(func.value, "/") and self.derived(node.args[0].elts[0])
        if isinstance(func, ast.Attribute) and func.attr == "format" and node.args:
            return _starts_with_slot(func.value, "{") and self.derived(node.args[0])
        return f.call_name(node) == "getenv" and bool(node.args) and _is_hub_var(node.args[0])

    def _name(self, name: str) -> bool:
        if name in self.seen:
            return True  # a cycle (HUB = HUB.rstrip("/")) adds nothing; the other bindings decide
        self.seen.add(name)
        try:
            binds = self.facts.bindings.get(name, [])
            return bool(binds) and all(
                self._param(b.node) if b.kind == "param" else self.derived(b.value) for b in binds
            )
        finally:
            self.seen.discard(name)

    def _param(self, arg: ast.arg) -> bool:
        # def get_state(url): ... requests.get(url)  ->  every get_state(...) call passes a hub URL
        fn = self.facts.parents.get(self.facts.parents.get(arg))
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            return False
        positional = [*fn.args.posonlyargs, *fn.args.args]
        index = next((i for i, a in enumerate(positional) if a is arg), None)
        defaults = dict(
            zip(positional[len(positional) - len(fn.args.defaults) :], fn.args.defaults, strict=True)
        )
        sites = [
            n
            for n in walk(self.facts.tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fn.name
        ]
        if not sites:
            return False
        for site in sites:
            given = next((k.value for k in site.keywords if k.arg == arg.arg), None)
            if given is None and index is not None and index < len(site.args):
                given = site.args[index]
            if given is None:
                given = defaults.get(arg)
            if not self.derived(given):
                return False
        return True


def _is_hub_var(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == HUB_VAR


def _starts_with_slot(node: ast.AST, slot: str) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(slot)
