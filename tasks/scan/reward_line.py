"""reward_line: the grader's verdict is one `REWARD:` line, printed last, on the main path
(rewardkit's `grade()`, or a hand-written print at the end of the script; DESIGN.md §3.1). The
runtime refuses a grade with two REWARD lines or one that is not last (tasks/grading.py); this rule
catches the same hacks before the reward is accepted (grader_patches.py catches what the runtime
cannot see: a patched check that passes everything).

It follows the output:
- every REWARD text (string and bytes literals, and strings built from constants: `"REW" + "ARD"`,
  `" ".join([...])`, rot13) must be the first argument of a `print()` to stdout or a
  `sys.stdout.write()`, and that call must be on the main path: not in a lambda, a method, a
  decorated function or a function passed around as a value (atexit, signal, timers, `__del__`);
- along every path through the main code (module body, then the functions it calls, summarised
  per function: reward_order.py), no REWARD line or other stdout output may follow a REWARD line,
  and a REWARD line in a loop must leave it (an early `print("REWARD: 0.0"); sys.exit(0)` is fine);
- no raw output channel (os.write, sys.__stdout__, sys.stdout.buffer, os.dup2, fd 1), no replaced
  sys.stdout / sys.stderr / hooks, no redirect_stdout other than into a StringIO or devnull, no exit
  or signal callbacks (atexit, signal, weakref.finalize, audit/trace hooks), and no stdout output from
  dunder methods (`__del__`, `__exit__`, ...), which run when the interpreter decides.

What it cannot see: output through objects it cannot follow (a file object bound to fd 1 by a
library), REWARD text built from values it cannot fold, and callbacks registered by libraries.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.reward_order import STDOUT_CALLS, RewardOrder
from tasks.scan.syntax import FUNCS, flat_targets, kids, walk

REWARD_RE = re.compile(r"(^|\n)\s*REWARD\s*:")
RAW_OUTPUT = {
    "os.write",
    "os.writev",
    "os.fdopen",
    "os.dup",
    "os.dup2",
    "os.sendfile",
    "sys.__stdout__",
    "sys.__stderr__",
    "sys.stdout.buffer",
    "sys.stdout.fileno",
    "io.FileIO",
}
REPLACED = {
    "sys.stdout",
    "sys.stderr",
    "sys.__stdout__",
    "sys.__stderr__",
    "sys.displayhook",
    "sys.excepthook",
}
CALLBACKS = {
    "atexit.register",
    "signal.signal",
    "signal.alarm",
    "signal.setitimer",
    "weakref.finalize",
    "sys.addaudithook",
    "sys.settrace",
    "sys.setprofile",
    "threading.settrace",
    "threading.setprofile",
    "os.register_at_fork",
}
PURE_FUNCS = {"chr", "str", "bytes", "bytearray"}


def _finding(rule: str, node: ast.AST, message: str) -> Finding:
    return Finding(rule=rule, line=getattr(node, "lineno", 1), message=message)


def reward_line(facts: Facts) -> Iterator[Finding]:
    """One REWARD line, printed last, on the main path: see the module docstring."""
    sanctioned = _sanctioned(facts)
    yield from _stray_text(facts, sanctioned)
    yield from _off_main_path(facts, sanctioned)
    yield from RewardOrder(facts).run()
    yield from _channels(facts)


def _sanctioned(facts: Facts) -> dict[int, ast.Call]:
    """REWARD prints to stdout: print() without a file (or file=sys.stdout), sys.stdout.write()."""
    found = {}
    for call, _, _ in facts.reward_prints:
        file = next((k.value for k in call.keywords if k.arg == "file"), None)
        if file is None or facts.qualname(file) == "sys.stdout":
            found[id(call)] = call
    return found


def _reward_texts(facts: Facts) -> Iterator[ast.AST]:
    """String or bytes expressions holding REWARD text: literals, and maximal expressions built only
    from constants that fold to such text."""
    pure: dict[int, bool] = {}
    for node in reversed(facts.nodes):  # children before parents (ast.walk is breadth-first)
        pure[id(node)] = _pure(facts, node, pure)
    for node in facts.nodes:
        if isinstance(node, ast.Constant):  # every literal, also inside a constant tuple or list
            text = node.value
            if isinstance(facts.parents.get(node), ast.Expr):
                continue  # a docstring
        elif not pure.get(id(node)) or pure.get(id(facts.parents.get(node))):
            continue
        else:
            ok, text = facts.values.const(node)
            if not ok:
                continue
        if isinstance(text, bytes):
            text = text.decode("latin-1")
        if isinstance(text, str) and REWARD_RE.search(text):
            yield node


def _pure(facts: Facts, node: ast.AST, pure: dict[int, bool]) -> bool:
    children = list(kids(node))
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return (
            node.id in PURE_FUNCS
            and node.id not in facts.rebound
            and isinstance(facts.parents.get(node), ast.Call)
        )
    if isinstance(node, ast.Attribute):
        return pure.get(id(node.value), False) or (facts.qualname(node) or "").startswith(
            ("codecs.", "base64.")
        )
    if isinstance(
        node,
        ast.BinOp
        | ast.Call
        | ast.Subscript
        | ast.List
        | ast.Tuple
        | ast.Slice
        | ast.JoinedStr
        | ast.FormattedValue,
    ):
        return all(
            pure.get(id(c), False) for c in children if not isinstance(c, ast.expr_context | ast.operator)
        )
    if isinstance(node, ast.keyword):
        return pure.get(id(node.value), False)
    return False


def _stray_text(facts: Facts, sanctioned: dict[int, ast.Call]) -> Iterator[Finding]:
    inside: set[int] = set()
    for call in sanctioned.values():
        inside.update(id(n) for n in walk(call.args[0]))
    for node in _reward_texts(facts):
        if id(node) not in inside and not _template(facts, node, inside):
            yield _finding(
                "reward_line",
                node,
                f"REWARD text `{ast.unparse(node)[:50]}` outside a print() to stdout: the only REWARD line "
                "is the one grade() (or the script's last print) writes to stdout",
            )


def _template(facts: Facts, node: ast.AST, inside: set[int]) -> bool:
    """`LINE = "REWARD: {:.4f}"` used only as the text of REWARD prints: a named template."""
    parent = facts.parents.get(node)
    if not (
        isinstance(parent, ast.Assign)
        and parent.value is node
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
    ):
        return False
    name = parent.targets[0].id
    uses = [
        n for n in facts.nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    return bool(uses) and all(id(n) in inside for n in uses) and len(facts.bindings.get(name, [])) == 1


def _value_refs(facts: Facts) -> set[str]:
    """Local functions referenced other than by calling them (passed to atexit, stored in a table)."""
    refs = set()
    for node in facts.nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in facts.functions:
            parent = facts.parents.get(node)
            if not (isinstance(parent, ast.Call) and parent.func is node):
                refs.add(node.id)
    return refs


def _off_main_path(facts: Facts, sanctioned: dict[int, ast.Call]) -> Iterator[Finding]:
    refs = _value_refs(facts)
    for call in sanctioned.values():
        scope = facts.scope_of(call)
        while scope is not facts.tree:
            why = None
            if isinstance(scope, ast.Lambda):
                why = "a lambda, which runs whenever whoever holds it calls it"
            elif isinstance(facts.parents.get(scope), ast.ClassDef):
                why = f"the method `{scope.name}`, which Python may call at any time (`__del__` at exit)"
            elif isinstance(scope, FUNCS) and any(
                _deco_name(facts, d) not in {"component", "precondition"} for d in scope.decorator_list
            ):
                why = f"`{scope.name}`, which a decorator may register as a callback"
            elif isinstance(scope, FUNCS) and scope.name in refs:
                why = f"`{scope.name}`, which is passed around as a value (a callback)"
            if why:
                yield _finding(
                    "reward_line",
                    call,
                    f"prints REWARD from {why}: the REWARD line must come "
                    "from the main path, once, at its end",
                )
                break
            scope = facts.scope_of(scope)


def _deco_name(facts: Facts, deco: ast.expr) -> str | None:
    target = deco.func if isinstance(deco, ast.Call) else deco
    qual = facts.qualname(target)
    return qual.rsplit(".", 1)[-1] if qual else None


def _channels(facts: Facts) -> Iterator[Finding]:
    for node in facts.nodes:
        if isinstance(node, ast.Attribute | ast.Name) and isinstance(node.ctx, ast.Load):
            qual = facts.qualname(node)
            if qual in RAW_OUTPUT and not (
                isinstance(facts.parents.get(node), ast.Attribute)
                and facts.qualname(facts.parents[node]) in RAW_OUTPUT
            ):
                yield _finding(
                    "reward_line",
                    node,
                    f"uses `{qual}`, a raw output channel that bypasses print's "
                    "ordering: the REWARD line must be the last line print() writes",
                )
        elif isinstance(node, ast.Call):
            qual = facts.qualname(node.func) or ""
            if qual in CALLBACKS:
                yield _finding(
                    "reward_line",
                    node,
                    f"`{qual}` runs code after (or outside) the main path, "
                    "where a late REWARD line can be printed",
                )
            elif (
                qual in {"open", "io.open"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value in (1, 2)
            ):
                yield _finding("reward_line", node, "opens the process's stdout/stderr by file descriptor")
            elif qual in {"contextlib.redirect_stdout", "contextlib.redirect_stderr"} and not _to_sink(
                facts, node
            ):
                yield _finding(
                    "reward_line",
                    node,
                    f"`{qual}` sends output somewhere other than a StringIO or "
                    "devnull: stdout must carry the REWARD line as printed",
                )
            elif qual == "setattr" and node.args and facts.qualname(node.args[0]) == "sys":
                yield _finding("reward_line", node, "setattr on sys can replace sys.stdout")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for t in flat_targets(target):
                    qual = facts.qualname(t) if isinstance(t, ast.Attribute) else None
                    if qual and (
                        qual in REPLACED or qual.startswith("sys.stdout.") or qual == "builtins.print"
                    ):
                        yield _finding(
                            "reward_line",
                            t,
                            f"replaces `{qual}`: stdout must carry the REWARD line as print() writes it",
                        )
        elif (
            isinstance(node, FUNCS)
            and isinstance(facts.parents.get(node), ast.ClassDef)
            and node.name.startswith("__")
            and node.name.endswith("__")
            and _outputs(facts, node)
        ):
            yield _finding(
                "reward_line",
                node,
                f"the method `{node.name}` writes to stdout, and Python "
                "calls it when it decides (at exit, on collection), after the REWARD line",
            )


def _to_sink(facts: Facts, call: ast.Call) -> bool:
    if not call.args:
        return False
    target = call.args[0]
    if isinstance(target, ast.Call):
        qual = facts.qualname(target.func) or ""
        if qual in {"io.StringIO", "io.BytesIO", "StringIO", "BytesIO"}:
            return True
        if qual in {"open", "io.open"} and target.args and facts.qualname(target.args[0]) == "os.devnull":
            return True
    return False


def _outputs(facts: Facts, fn: ast.AST) -> bool:
    for node in walk(fn):
        if isinstance(node, ast.Call):
            qual = facts.qualname(node.func) or ""
            if qual in STDOUT_CALLS and not next((k for k in node.keywords if k.arg == "file"), None):
                return True
            if qual in RAW_OUTPUT:
                return True
    return False
