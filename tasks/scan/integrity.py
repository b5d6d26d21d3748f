"""The reward scanner's integrity rules: the grading machinery stays as written and its verdict is
one `REWARD:` line, printed last, on the main path (rewardkit's `grade()`, or a hand-written print at
the end of the script; DESIGN.md §3.1). The runtime refuses a grade with two REWARD lines or one that
is not last (tasks/grading.py); these rules catch the same hacks before the reward is accepted, and
the ones the runtime cannot see (a patched check that passes everything).

patches_grader looks at bindings: a rewardkit name (component, precondition, grade, _evaluate,
_COMPONENTS, _PRECONDITIONS) bound twice or mutated outside the kit's own `register`, a module-level
function defined twice, a builtin the kit relies on rebound at module level (`min = ...`), an
attribute stored on an imported module or class (`json.load = ...`, `Path.exists = ...`), an edit
of `sys.modules` or the import machinery, or a function's `__code__` replaced.

reward_line follows the output:
- every REWARD text (string and bytes literals, and strings built from constants: `"REW" + "ARD"`,
  `" ".join([...])`, rot13) must be the first argument of a `print()` to stdout or a
  `sys.stdout.write()`, and that call must be on the main path: not in a lambda, a method, a
  decorated function or a function passed around as a value (atexit, signal, timers, `__del__`);
- along every path through the main code (module body, then the functions it calls, summarised
  per function), no REWARD line or other stdout output may follow a REWARD line, and a REWARD line
  in a loop must leave it (an early `print("REWARD: 0.0"); sys.exit(0)` is fine);
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
from tasks.scan.facts import DEFS, EXIT_CALLS, FUNCS, kids, walk

KIT_NAMES = {"component", "precondition", "grade", "_evaluate", "_COMPONENTS", "_PRECONDITIONS"}
KIT_LISTS = {"_COMPONENTS", "_PRECONDITIONS"}
# builtins rewardkit's grade() and _evaluate() call: rebinding one at module level changes the verdict
KIT_BUILTINS = {
    "print",
    "min",
    "max",
    "sum",
    "round",
    "float",
    "int",
    "bool",
    "isinstance",
    "type",
    "repr",
    "Exception",
    "BaseException",
    "FileNotFoundError",
}
IMPORT_SYSTEM = {"sys.modules", "sys.meta_path", "sys.path_hooks", "sys.path", "sys.path_importer_cache"}
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
STDOUT_CALLS = {"print", "sys.stdout.write", "sys.stdout.writelines"}
PURE_FUNCS = {"chr", "str", "bytes", "bytearray"}


def _finding(rule: str, node: ast.AST, message: str) -> Finding:
    return Finding(rule=rule, line=getattr(node, "lineno", 1), message=message)


# --- patches_grader -----------------------------------------------------------------------------------


def _module_bindings(facts: Facts) -> dict[str, list[ast.AST]]:
    """Module-level bindings of each name, and bindings through `global` in functions."""
    declared = {
        name: fn
        for node in facts.nodes
        if isinstance(node, ast.Global)
        for name in node.names
        for fn in [facts.scope_of(node)]
    }
    out: dict[str, list[ast.AST]] = {}
    for node in facts.nodes:
        names: list[str] = []
        if isinstance(node, FUNCS | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store | ast.Del)
            and not _comprehension_target(facts, node)
        ):
            names = [node.id]
        if not names:
            continue
        scope = facts.scope_of(node)
        for name in names:
            if scope is facts.tree or declared.get(name) is scope:
                out.setdefault(name, []).append(node)
    return out


def _comprehension_target(facts: Facts, node: ast.AST) -> bool:
    """A comprehension's loop variable: it has its own scope."""
    parent = facts.parents.get(node)
    while isinstance(parent, ast.Tuple | ast.List | ast.Starred):
        node, parent = parent, facts.parents.get(parent)
    return isinstance(parent, ast.comprehension) and parent.target is node


def _inside_def(facts: Facts, node: ast.AST, names: set[str]) -> bool:
    scope = facts.scope_of(node)
    while scope is not facts.tree:
        if isinstance(scope, FUNCS) and scope.name in names:
            return True
        scope = facts.scope_of(scope)
    return False


def patches_grader(facts: Facts) -> Iterator[Finding]:
    """Rebinding or mutating what grades: see the module docstring."""
    why = "the checks must run as written, so the scan's verdict on them holds"
    binds = _module_bindings(facts)
    has_kit = any(
        isinstance(n, FUNCS) and facts.scope_of(n) is facts.tree for n in binds.get("component", [])
    ) or any(isinstance(n, FUNCS) for n in binds.get("grade", []))
    for name, nodes in sorted(binds.items()):
        kit = has_kit and name in KIT_NAMES
        # a function defined twice, or defined and assigned: the analysis would merge the two, the run
        # keeps the last. Decorated defs are registered components, each kept by the registry.
        redefined = any(isinstance(n, FUNCS) for n in nodes) and not all(
            isinstance(n, FUNCS) and n.decorator_list for n in nodes
        )
        if len(nodes) > 1 and (kit or redefined):
            later = sorted(nodes, key=lambda n: (n.lineno, n.col_offset))[1]
            what = "a rewardkit name" if kit else "a module-level function"
            yield _finding("patches_grader", later, f"rebinds `{name}`, {what} already defined: {why}")
        elif name in {"print", "__import__", "__build_class__"} or (has_kit and name in KIT_BUILTINS):
            yield _finding(
                "patches_grader",
                nodes[0],
                f"rebinds the builtin `{name}` at module level, which the grader's own code calls: {why}",
            )
    for node in facts.nodes:
        yield from _patch_at(facts, node, has_kit, why)


def _patch_at(facts: Facts, node: ast.AST, has_kit: bool, why: str) -> Iterator[Finding]:
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    for target in targets:
        for t in _flat(target):
            if isinstance(t, ast.Attribute | ast.Subscript):
                yield from _store_on(facts, t, has_kit, why)
    if isinstance(node, ast.Call):
        qual = facts.qualname(node.func) or ""
        name = facts.call_name(node)
        if name in {"setattr", "delattr"} and isinstance(node.func, ast.Name) and node.args:
            what = _patchable(facts, node.args[0])
            if what:
                yield _finding("patches_grader", node, f"{name} on {what}: {why}")
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if receiver is not None:
            base = facts.qualname(receiver)
            if base in IMPORT_SYSTEM and name not in {
                "get",
                "keys",
                "values",
                "items",
                "copy",
                "index",
                "count",
            }:
                yield _finding("patches_grader", node, f"edits `{base}` (`{qual}`): {why}")
            elif (
                has_kit
                and isinstance(receiver, ast.Name)
                and receiver.id in KIT_LISTS
                and not (name == "append" and _inside_def(facts, node, {"component", "precondition"}))
                and name not in {"copy", "index", "count"}
            ):
                yield _finding(
                    "patches_grader",
                    node,
                    f"`{receiver.id}.{name}(...)` changes the registered checks outside rewardkit's own "
                    f"component()/precondition(): {why}",
                )


def _flat(target: ast.AST):
    if isinstance(target, ast.Tuple | ast.List):
        for elt in target.elts:
            yield from _flat(elt)
    elif isinstance(target, ast.Starred):
        yield from _flat(target.value)
    else:
        yield target


def _store_on(
    facts: Facts, target: ast.Attribute | ast.Subscript, has_kit: bool, why: str
) -> Iterator[Finding]:
    base = target.value
    if facts.qualname(base) in IMPORT_SYSTEM or facts.qualname(target) in IMPORT_SYSTEM:
        yield _finding("patches_grader", target, f"edits `{ast.unparse(target)[:40]}`: {why}")
        return
    if isinstance(target, ast.Subscript):
        if has_kit and isinstance(base, ast.Name) and base.id in KIT_LISTS:
            yield _finding(
                "patches_grader", target, f"replaces entries of `{base.id}`, the registered checks: {why}"
            )
        return
    what = _patchable(facts, base)
    if what and not (facts.qualname(target) or "").startswith(("pandas.options", "pd.options")):
        yield _finding("patches_grader", target, f"stores `{ast.unparse(target)[:50]}` on {what}: {why}")


def _patchable(facts: Facts, node: ast.AST) -> str | None:
    """What storing an attribute on `node` would patch: an imported module or class, a function."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    name = root.id
    if name in facts.aliases and name not in facts.rebound:
        return f"the imported `{ast.unparse(node)[:40]}`"
    if name in facts.functions and name not in facts.rebound:
        return f"the function `{name}`"
    if name in {"__builtins__", "builtins"}:
        return "the builtins"
    return None


# --- reward_line --------------------------------------------------------------------------------------


def reward_line(facts: Facts) -> Iterator[Finding]:
    """One REWARD line, printed last, on the main path: see the module docstring."""
    sanctioned = _sanctioned(facts)
    yield from _stray_text(facts, sanctioned)
    yield from _off_main_path(facts, sanctioned)
    yield from _Sequence(facts).run()
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
                for t in _flat(target):
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


class _Sequence:
    """Paths through the main code, each in one of two states: REWARD line printed or not yet."""

    def __init__(self, facts: Facts) -> None:
        self.f = facts
        self.rewards = {id(c) for c, _, _ in facts.reward_prints}
        self.summaries: dict[int, tuple[bool, frozenset]] = {}
        self.busy: set[int] = set()
        self.found: dict[int, Finding] = {}
        self.breaks: list[set] = []  # per enclosing loop: states leaving it by `break`
        self.continues: list[set] = []  # ... and starting its next iteration by `continue`
        self.returns: set | None = None  # states a summarised function returns in
        self.outputs: set[int] | None = None

    def run(self) -> Iterator[Finding]:
        self.block(self.f.tree.body, {False})
        yield from self.found.values()

    def report(self, node: ast.AST, what: str) -> None:
        if id(node) not in self.found:
            self.found[id(node)] = _finding(
                "reward_line",
                node,
                f"{what} after a REWARD line on the same path: the REWARD line must be "
                "printed once, last (leave right after an early `REWARD: 0.0`)",
            )

    def summary(self, fn: ast.AST) -> tuple[bool, frozenset]:
        """(may write to stdout, the states it may return in when entered before any REWARD line)."""
        if id(fn) in self.summaries:
            return self.summaries[id(fn)]
        if id(fn) in self.busy:
            return False, frozenset({False})
        self.busy.add(id(fn))
        saved, self.returns = self.returns, set()
        loops, self.breaks, self.continues = (self.breaks, self.continues), [], []
        out = self.block(fn.body, {False})
        self.breaks, self.continues = loops
        result = (self._outputs(fn), frozenset(out | self.returns))
        self.returns = saved
        self.busy.discard(id(fn))
        self.summaries[id(fn)] = result
        return result

    def _outputs(self, fn: ast.AST) -> bool:
        """Does `fn` (or a local function it calls) write to stdout?"""
        if self.outputs is None:
            direct: set[int] = set()
            calls: dict[int, set[int]] = {}
            for node in self.f.nodes:
                if not isinstance(node, ast.Call):
                    continue
                scope = id(self.f.scope_of(node))
                if id(node) in self.rewards or self._stdout(node):
                    direct.add(scope)
                elif (callee := self._callee(node)) is not None:
                    calls.setdefault(scope, set()).add(id(callee))
            self.outputs = set(direct)
            changed = True
            while changed:
                changed = False
                for caller, callees in calls.items():
                    if caller not in self.outputs and callees & self.outputs:
                        self.outputs.add(caller)
                        changed = True
        return id(fn) in self.outputs

    def _callee(self, call: ast.Call) -> ast.AST | None:
        if isinstance(call.func, ast.Name) and len(self.f.functions.get(call.func.id, [])) == 1:
            return self.f.functions[call.func.id][0]
        return None

    def _stdout(self, call: ast.Call) -> bool:
        qual = self.f.qualname(call.func) or ""
        file = next((k.value for k in call.keywords if k.arg == "file"), None)
        return qual in STDOUT_CALLS and (file is None or self.f.qualname(file) == "sys.stdout")

    def events(self, node: ast.AST, state: set) -> set:
        for sub in _expr_walk(node):
            if not isinstance(sub, ast.Call) or not state:
                continue
            if id(sub) in self.rewards or self._stdout(sub):
                if True in state:
                    self.report(
                        sub, "prints a REWARD line" if id(sub) in self.rewards else "writes to stdout"
                    )
                if id(sub) in self.rewards:
                    state = {True}
                continue
            callee = self._callee(sub)
            if callee is not None:
                outputs, outs = self.summary(callee)
                if outputs and True in state:
                    self.report(sub, f"calls `{callee.name}`, which writes to stdout,")
                state = ({True} if True in state and outs else set()) | (
                    set(outs) if False in state else set()
                )
            elif self.f.qualname(sub.func) in EXIT_CALLS:
                state = set()
        return state

    def block(self, stmts: list[ast.stmt], state: set) -> set:
        for s in stmts:
            if not state:
                return state
            state = self.stmt(s, state)
        return state

    def stmt(self, s: ast.stmt, state: set) -> set:
        if isinstance(s, DEFS):
            return state
        if isinstance(s, ast.If):
            state = self.events(s.test, state)
            return self.block(s.body, set(state)) | self.block(s.orelse, set(state))
        if isinstance(s, ast.For | ast.AsyncFor | ast.While):
            state = self.events(s.iter if not isinstance(s, ast.While) else s.test, state)
            self.breaks.append(set())
            self.continues.append(set())
            first = self.block(s.body, set(state))  # a second pass sees what the first one printed
            second = self.block(s.body, state | first | self.continues[-1])
            broke, went_on = self.breaks.pop(), self.continues.pop()
            return self.block(s.orelse, state | first | second | went_on) | broke
        if isinstance(s, ast.With | ast.AsyncWith):
            for item in s.items:
                state = self.events(item.context_expr, state)
            return self.block(s.body, state)
        if isinstance(s, ast.Try | ast.TryStar):
            body = self.block(s.body, set(state))
            emitted = {True} if any(id(n) in self.rewards for n in _header_walk(s.body)) else set()
            start = state | body | emitted
            ends = body if not s.orelse else self.block(s.orelse, body)
            for h in s.handlers:
                ends = ends | self.block(h.body, set(start))
            if s.finalbody:
                after = self.block(s.finalbody, ends or set(start))
                return after if ends else set()
            return ends
        if isinstance(s, ast.Match):
            state = self.events(s.subject, state)
            out = set(state)
            for case in s.cases:
                out |= self.block(case.body, set(state))
            return out
        state = self.events(s, state)
        if isinstance(s, ast.Return):
            if self.returns is not None:
                self.returns |= state
            return set()
        if isinstance(s, ast.Break | ast.Continue):
            loops = self.breaks if isinstance(s, ast.Break) else self.continues
            if loops:
                loops[-1] |= state
            return set()
        if isinstance(s, ast.Raise):
            return set()
        return state


def _expr_walk(node: ast.AST) -> list[ast.AST]:
    """The nodes of one simple statement or header expression in evaluation order (children, then
    the node: a call's arguments come before the call), not entering lambdas or definitions."""
    found: list[ast.AST] = []
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    skip = ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    while stack:
        cur, expanded = stack.pop()
        if expanded:
            found.append(cur)
            continue
        if isinstance(cur, skip):
            continue
        stack.append((cur, True))
        stack.extend((c, False) for c in reversed(kids(cur)))
    return found


def _header_walk(stmts: list[ast.AST]):
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            c
            for c in kids(node)
            if not isinstance(c, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        )
