"""The reward scanner's run-time code rules: a grader runs no processes and no code the scan cannot
read (the information barrier of DESIGN.md §2: it may only look at the agent's final state).

process_exec: subprocess, os.system/popen/exec*/spawn*, pty, ctypes, multiprocessing and the like.
dynamic_code has many routes besides exec/eval: dynamic imports, unpickling and
marshalled code objects, namespaces (globals(), vars(), `__dict__`, sys.modules), introspection that
reaches code or frames (`__subclasses__`, `__globals__`, `__code__`), and attribute lookups by a name
that is computed (`getattr(os, name)` on a module or builtins) or that folds to a dangerous one
(`getattr(x, "ev" + "al")`, rot13, `operator.methodcaller("system")`; values.py does the folding).
What it cannot see: a name computed from data it cannot fold and looked up on an ordinary object
(`getattr(obj, attr)` on a parsed document is allowed, by design), and code a library runs for it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.dotted_names import called_names, imported_names, under

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


def process_exec(facts: Facts) -> Iterator[Finding]:
    """Starting processes: a grader that shells out can do anything the agent's state cannot show."""
    why = "a reward must not start processes (it could run anything and the scan could not vet it)"
    for node, name in imported_names(facts):
        if under(name, PROCESS_MODULES) or PROCESS_CALLS.match(name):
            yield Finding(rule="process_exec", line=node.lineno, message=f"imports `{name}`: {why}")
    for call, qual in called_names(facts):
        if PROCESS_CALLS.match(qual) or under(qual, PROCESS_MODULES):
            yield Finding(rule="process_exec", line=call.lineno, message=f"calls `{qual}`: {why}")


def dynamic_code(facts: Facts) -> Iterator[Finding]:
    """Code built or fetched at run time escapes the static scan: exec/eval/compile, dynamic imports,
    unpickling, code objects, namespaces (globals(), vars(), `__dict__`, sys.modules), introspection
    that reaches code or frames (`__subclasses__`, `__globals__`), and attribute lookups by a name
    the scan cannot read or that folds to one of these (`getattr(os, "sys" + "tem")`)."""
    why = "code built at run time cannot be scanned"
    for node, name in imported_names(facts):
        if under(name, DYNAMIC_MODULES):
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
