"""The reward scanner's access rules: what a grader may touch. It runs inside the guest with the
agent's final state; it may read that state (files under /home/user, the hub's state API) and nothing
else — no processes, no generated code, no network but the hub, no files outside the env and none of
the generator's scripts (the information barrier of DESIGN.md §2).

Run-time code (dynamic_code) has many routes besides exec/eval: dynamic imports, unpickling and
marshalled code objects, namespaces (globals(), vars(), `__dict__`, sys.modules), introspection that
reaches code or frames (`__subclasses__`, `__globals__`, `__code__`), and attribute lookups by a name
that is computed (`getattr(os, name)` on a module or builtins) or that folds to a dangerous one
(`getattr(x, "ev" + "al")`, rot13, `operator.methodcaller("system")`; values.py does the folding).
What it cannot see: a name computed from data it cannot fold and looked up on an ordinary object
(`getattr(obj, attr)` on a parsed document is allowed, by design), and code a library runs for it.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.facts import walk

PROCESS_MODULES = (
    "subprocess",
    "pty",
    "ctypes",
    "multiprocessing",
    "pexpect",
    "sh",
    "plumbum",
    "asyncio.subprocess",
)
PROCESS_CALLS = re.compile(
    r"^os\.(system|popen|fork|forkpty|startfile|exec\w*|spawn\w*|posix_spawn\w*)$|"
    r"^asyncio\.create_subprocess_\w+$"
)
DYNAMIC_MODULES = (
    "importlib",
    "runpy",
    "imp",
    "builtins",
    "code",
    "codeop",
    "marshal",
    "pickle",
    "_pickle",
    "cPickle",
    "shelve",
    "dill",
    "cloudpickle",
    "jsonpickle",
    "copyreg",
    "gc",
    "inspect",
)
DYNAMIC_NAMES = {
    "exec",
    "eval",
    "compile",
    "__import__",
    "__builtins__",
    "globals",
    "vars",
    "locals",
    "breakpoint",
}
DYNAMIC_ATTRS = re.compile(
    r"^(exec\w*|eval|compile|__import__|system|popen|spawn\w*|fork|load|loads|__builtins__|__dict__|"
    r"__globals__|__code__|__subclasses__)$"
)
# introspection that reaches code, frames and namespaces from an ordinary object
INTROSPECTION = {
    "__dict__",
    "__globals__",
    "__builtins__",
    "__subclasses__",
    "__bases__",
    "__base__",
    "__mro__",
    "__code__",
    "__closure__",
    "__self__",
    "__func__",
    "__getattribute__",
    "__reduce__",
    "__reduce_ex__",
    "__loader__",
    "__spec__",
    "__import__",
    "f_globals",
    "f_locals",
    "f_back",
    "f_builtins",
    "gi_frame",
    "tb_frame",
    "co_code",
}
DYNAMIC_CALLS = {
    "types.FunctionType",
    "types.CodeType",
    "types.LambdaType",
    "types.MethodType",
    "sys._getframe",
    "operator.methodcaller",
    "operator.attrgetter",
}
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


def _under(module: str, roots: tuple[str, ...]) -> bool:
    return any(module == r or module.startswith(r + ".") for r in roots)


def _imports(facts: Facts) -> Iterator[tuple[ast.AST, str]]:
    """(node, dotted name) for every import; `from os import system` yields `os.system`."""
    for node in facts.nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node, node.module
            for alias in node.names:
                yield node, f"{node.module}.{alias.name}"


def _calls(facts: Facts) -> Iterator[tuple[ast.Call, str]]:
    for node in facts.nodes:
        if isinstance(node, ast.Call) and (qual := facts.qualname(node.func)):
            yield node, qual


def process_exec(facts: Facts) -> Iterator[Finding]:
    """Starting processes: a grader that shells out can do anything the agent's state cannot show."""
    why = "a reward must not start processes (it could run anything and the scan could not vet it)"
    for node, name in _imports(facts):
        if _under(name, PROCESS_MODULES) or PROCESS_CALLS.match(name):
            yield Finding(rule="process_exec", line=node.lineno, message=f"imports `{name}`: {why}")
    for call, qual in _calls(facts):
        if PROCESS_CALLS.match(qual) or _under(qual, PROCESS_MODULES):
            yield Finding(rule="process_exec", line=call.lineno, message=f"calls `{qual}`: {why}")


def dynamic_code(facts: Facts) -> Iterator[Finding]:
    """Code built or fetched at run time escapes the static scan: exec/eval/compile, dynamic imports,
    unpickling, code objects, namespaces (globals(), vars(), `__dict__`, sys.modules), introspection
    that reaches code or frames (`__subclasses__`, `__globals__`), and attribute lookups by a name
    the scan cannot read or that folds to one of these (`getattr(os, "sys" + "tem")`)."""
    why = "code built at run time cannot be scanned"
    for node, name in _imports(facts):
        if _under(name, DYNAMIC_MODULES):
            yield Finding(rule="dynamic_code", line=node.lineno, message=f"imports `{name}`: {why}")
    local = set(facts.functions) | set(facts.aliases) | set(facts.bindings)  # e.g. `from re import compile`
    for node in facts.nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in DYNAMIC_NAMES - local:
            yield Finding(rule="dynamic_code", line=node.lineno, message=f"uses `{node.id}`: {why}")
        elif isinstance(node, ast.Attribute) and node.attr in INTROSPECTION:
            yield Finding(
                rule="dynamic_code",
                line=node.lineno,
                message=f"reaches `{node.attr}`, introspection into namespaces or code: {why}",
            )
        elif isinstance(node, ast.Call):
            yield from _dynamic_call(facts, node, why)
        elif (
            isinstance(node, ast.Subscript | ast.Attribute)
            and facts.qualname(node.value if isinstance(node, ast.Subscript) else node) == "sys.modules"
        ):
            yield Finding(
                rule="dynamic_code", line=node.lineno, message=f"looks modules up in sys.modules: {why}"
            )


def _dynamic_call(facts: Facts, node: ast.Call, why: str) -> Iterator[Finding]:
    qual = facts.qualname(node.func) or ""
    name = facts.call_name(node)
    if qual in DYNAMIC_CALLS:
        if qual.startswith("operator.") and all(_safe_attr(facts, a) for a in node.args):
            return  # operator.attrgetter("value"): a plain attribute
        yield Finding(rule="dynamic_code", line=node.lineno, message=f"calls `{qual}`: {why}")
    elif qual in {"codecs.decode", "codecs.encode"} and any(
        isinstance(a, ast.Constant) and str(a.value).replace("_", "").lower() == "rot13"
        for a in [*node.args, *(k.value for k in node.keywords)]
    ):
        yield Finding(rule="dynamic_code", line=node.lineno, message=f"decodes rot13-hidden text: {why}")
    elif (
        name in {"getattr", "setattr", "delattr", "hasattr"}
        and isinstance(node.func, ast.Name)
        and len(node.args) >= 2
    ):
        ok, attr = facts.values.const(node.args[1])
        if ok and isinstance(attr, str) and DYNAMIC_ATTRS.match(attr):
            yield Finding(
                rule="dynamic_code",
                line=node.lineno,
                message=f"looks up `{attr}` by name with {name}: {why}",
            )
        elif not ok and _namespace(facts, node.args[0]):
            yield Finding(
                rule="dynamic_code",
                line=node.lineno,
                message=f"{name} on `{ast.unparse(node.args[0])[:40]}` with a name computed at run time "
                f"(`{ast.unparse(node.args[1])[:40]}`): {why}",
            )


def _safe_attr(facts: Facts, node: ast.AST) -> bool:
    ok, attr = facts.values.const(node)
    return ok and isinstance(attr, str) and not DYNAMIC_ATTRS.match(attr) and not attr.startswith("_")


def _namespace(facts: Facts, node: ast.AST) -> bool:
    """A module, a builtins namespace or a local function or class: where names reach code."""
    if isinstance(node, ast.Name):
        return (
            node.id in {"__builtins__", "builtins"}
            or (
                node.id in facts.aliases
                and node.id not in facts.rebound
                and facts.aliases[node.id].split(".")[-1] == node.id.split(".")[-1]
                and _is_module_import(facts, node.id)
            )
            or node.id in facts.functions
        )
    if isinstance(node, ast.Call):
        return facts.qualname(node.func) in {
            "__import__",
            "importlib.import_module",
            "globals",
            "vars",
            "locals",
        }
    return isinstance(node, ast.Subscript) and facts.qualname(node.value) == "sys.modules"


def _is_module_import(facts: Facts, name: str) -> bool:
    """`import os` / `import numpy as np` bind modules; `from pptx.enum import PP_PLACEHOLDER` may not."""
    return any(
        isinstance(n, ast.Import) and any((a.asname or a.name.split(".")[0]) == name for a in n.names)
        for n in facts.nodes
    )


def network(facts: Facts) -> Iterator[Finding]:
    """Network access other than the hub. `requests` is allowed when its URL is built from the
    CUAGYM_HUB_URL environment variable (or the bundle placeholder); raw sockets, urllib and other
    clients are not allowed at all."""
    flagged = set()
    for node, name in _imports(facts):
        if _under(name, NETWORK_MODULES):
            flagged.add(name)
            yield Finding(
                rule="network",
                line=node.lineno,
                message=f"imports `{name}`: the only network a reward may use is the hub, via requests",
            )
    for call, qual in _calls(facts):
        if _under(qual, NETWORK_MODULES) and not any(_under(qual, (f,)) for f in flagged):
            yield Finding(
                rule="network", line=call.lineno, message=f"calls `{qual}`: only the hub may be reached"
            )
    hub = _HubFlow(facts)
    for call in (n for n in facts.nodes if isinstance(n, ast.Call) and facts.is_request(n)):
        url = _url_arg(facts, call)
        if url is None or not hub.derived(url):
            shown = "no URL" if url is None else f"`{ast.unparse(url)[:80]}`"
            yield Finding(
                rule="network",
                line=call.lineno,
                message=f"request to {shown}, which is not built from os.environ[{HUB_VAR!r}]: "
                "rewards may only query the hub's state API",
            )


def _url_arg(facts: Facts, call: ast.Call) -> ast.expr | None:
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
        reason = _outside_reason(node.value, facts.parents.get(node), facts)
        if reason:
            yield Finding(
                rule="outside_env",
                line=node.lineno,
                message=f"path {node.value[:80]!r} {reason}; a reward may only read the env under /home/user",
            )


def _outside_reason(text: str, parent: ast.AST | None, facts: Facts) -> str | None:
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
