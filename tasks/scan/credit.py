"""Where a reward gives credit: its `REWARD:` prints, its score-like variables, the statements that
add to them, and its rewardkit components. Builds on the control and provenance facts of facts.py
and the values of values.py; the rules (listed in tasks/scan/__init__.py) read the result.

A *score-like variable* is one whose name says so (score, reward, earned, points, credit; not max /
possible / weight / total, which are denominators) or one the printed REWARD value is computed from.
A *component* is a function registered with `@component(...)` or `component(...)(fn)`. A REWARD
print is found by its text, folded where it is built (`" ".join(["REWARD:", x])`, a template name).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from tasks.scan.facts import TreeFacts
from tasks.scan.syntax import kids, walk

SCORE_RE = re.compile(r"score|reward|earned|points|credit", re.I)
NOT_SCORE_RE = re.compile(r"max|possible|weight|total", re.I)  # denominators are not credit
REWARD_TEXT_RE = re.compile(r"^\s*REWARD\s*:\s*(\S*)")
CONTAINERS = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.JoinedStr)


def number(node: ast.AST | None) -> float | None:
    """The numeric value of a literal (True counts as 1), seen through str()/float()/round()."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.args
        and node.func.id in {"str", "float", "int", "round", "bool"}
    ):
        node = node.args[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    return None


def names_in(node: ast.AST | None, *, skip_divisors: bool = False) -> set[str]:
    """Names read by an expression (not called functions; optionally not what it divides by)."""
    found: set[str] = set()
    stack = [node] if node is not None else []
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Name) and isinstance(cur.ctx, ast.Load):
            found.add(cur.id)
        elif isinstance(cur, ast.Call):
            stack.extend([*cur.args, *(k.value for k in cur.keywords)])
            if isinstance(cur.func, ast.Attribute):
                stack.append(cur.func.value)
            continue
        elif skip_divisors and isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Div):
            stack.append(cur.left)
            continue
        stack.extend(kids(cur))
    return found


@dataclass
class Credit:
    """A place where score is given: `score += v`, `score = v` (v > 0) or a positive REWARD print."""

    node: ast.AST
    kind: str  # increment | assign | print
    target: str | None
    value: ast.expr | None
    literal: float | None


class Facts(TreeFacts):
    """TreeFacts plus credit: `reward_prints`, `score_names`, `credits` and `components`."""

    def __init__(self, tree: ast.Module) -> None:
        super().__init__(tree)
        self.memo: dict[str, object] = {}  # per-file results of rule helpers (scored_code.per_file)
        self.reward_prints = [
            (call, value, lit)
            for call in self.nodes
            if isinstance(call, ast.Call)
            for value, lit in [self.reward_value(call)]
            if value is not None or lit is not None
        ]
        self.score_names = self._score_names()
        self.credits = self._credits()
        self.components: list[ast.FunctionDef | ast.AsyncFunctionDef] = [
            fn
            for defs in self.functions.values()
            for fn in defs
            if any(self._decorator_name(d) == "component" for d in fn.decorator_list)
        ]
        self.lambda_components: list[ast.Lambda] = []
        for node in self.nodes:  # component("name", 0.5)(check): registered by a call
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Call)
                and self._decorator_name(node.func) == "component"
                and node.args
            ):
                fn = node.args[0]
                if isinstance(fn, ast.Name) and fn.id in self.functions:
                    self.components.extend(d for d in self.functions[fn.id] if d not in self.components)
                elif isinstance(fn, ast.Lambda):
                    self.lambda_components.append(fn)
        self.preconditions = [
            fn
            for defs in self.functions.values()
            for fn in defs
            if any(self._decorator_name(d) == "precondition" for d in fn.decorator_list)
        ]

    def folded_number(self, node: ast.AST | None) -> float | None:
        """`number`, or the single numeric value the expression folds to (`(3 - 2) * 1.0`, `len("x")`)."""
        if (value := number(node)) is not None:
            return value
        ok, value = self.values.const(node)
        if ok and isinstance(value, int | float) and not isinstance(value, complex):
            return float(value)
        return None

    def _decorator_name(self, deco: ast.expr) -> str | None:
        target = deco.func if isinstance(deco, ast.Call) else deco
        qual = self.qualname(target)
        return qual.rsplit(".", 1)[-1] if qual else None

    def constant_value(self, name: str) -> float | None:
        """The value of a name bound only to numeric literals, unconditionally; None otherwise."""
        binds = self.bindings.get(name, [])
        if not binds or any(
            b.kind != "assign" or number(b.value) is None or self.context(b.node).conditional for b in binds
        ):
            return None
        last = max(binds, key=lambda b: (b.node.lineno, b.node.col_offset))
        return number(last.value)

    def reward_value(self, call: ast.Call) -> tuple[ast.expr | None, float | None]:
        """For a call printing `REWARD: ...`: (the printed expression, its literal value if any)."""
        qual = self.qualname(call.func)
        if qual not in {"print", "sys.stdout.write"} or not call.args:
            return None, None
        first = call.args[0]
        built = not any(isinstance(n, ast.Name | ast.FormattedValue) for n in walk(first))
        ok, whole = self.values.const(first) if built else (False, None)
        if ok and isinstance(whole, str) and len(call.args) == 1:  # built from constants only
            match = REWARD_TEXT_RE.match(whole)
            if match is None:
                return None, None
            try:
                return None, float(match.group(1))
            except ValueError:
                return None, None
        text = self.leading_text(first)
        match = REWARD_TEXT_RE.match(text) if text is not None else None
        if match is None:
            return None, None
        value: ast.expr | None = None
        if len(call.args) > 1:
            value = call.args[1]
        elif isinstance(first, ast.JoinedStr):
            value = next((v.value for v in first.values if isinstance(v, ast.FormattedValue)), None)
        elif isinstance(first, ast.BinOp) and isinstance(first.op, ast.Add | ast.Mod):
            value = (
                first.right.elts[0]
                if isinstance(first.right, ast.Tuple) and first.right.elts
                else first.right
            )
        elif isinstance(first, ast.Call) and first.args:  # "REWARD: {}".format(x)
            value = first.args[0]
        if value is None:
            try:
                return None, float(match.group(1))
            except ValueError:
                return None, None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            try:
                return value, float(value.value)
            except ValueError:
                return value, None
        literal = number(value)
        inner = _unwrap(value)
        if literal is None and isinstance(inner, ast.Name):
            literal = self.constant_value(inner.id)  # score = 1.0 ... print(f"REWARD: {score}")
        return value, literal

    def leading_text(self, node: ast.AST) -> str | None:
        """The constant text a string expression starts with (`{}` for the computed parts)."""
        return _leading_text(self, node)

    def _score_names(self) -> set[str]:
        bound = {n for n, binds in self.bindings.items() if any(b.kind in ("assign", "aug") for b in binds)}
        names = {
            n
            for n in bound
            if SCORE_RE.search(n)
            and not NOT_SCORE_RE.search(n)
            and not any(isinstance(b.value, CONTAINERS) for b in self.bindings[n])
        }  # data, not a score
        frontier = {n for _, value, _ in self.reward_prints for n in names_in(value, skip_divisors=True)}
        # what the printed value is computed from is score too (final = min(pts, 1.0) -> pts)
        while frontier - names:
            names |= frontier
            frontier = {
                m
                for n in frontier
                for b in self.bindings.get(n, [])
                if b.kind in ("assign", "aug")
                for m in names_in(b.value, skip_divisors=True)
            }
        return {n for n in names if n in bound or n in self.bindings}

    def score_bindings(self) -> list[ast.expr]:
        """Every value a score-like name is given (assignments and augmented assignments)."""
        return [
            b.value
            for n in sorted(self.score_names)
            for b in self.bindings.get(n, [])
            if b.value is not None and b.kind in ("assign", "aug")
        ]

    def _credits(self) -> list[Credit]:
        credits: list[Credit] = []
        for node in self.nodes:
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Add)
                and isinstance(node.target, ast.Name)
                and node.target.id in self.score_names
            ):
                credits.append(
                    Credit(node, "increment", node.target.id, node.value, self.folded_number(node.value))
                )
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in self.score_names
            ):
                target, value = node.targets[0].id, node.value
                if (
                    isinstance(value, ast.BinOp)
                    and isinstance(value.op, ast.Add)
                    and isinstance(value.left, ast.Name)
                    and value.left.id == target
                ):
                    credits.append(
                        Credit(node, "increment", target, value.right, self.folded_number(value.right))
                    )
                elif (lit := self.folded_number(value)) is not None and lit > 0:
                    credits.append(Credit(node, "assign", target, value, lit))
        for call, value, lit in self.reward_prints:
            if lit is not None and lit > 0:
                credits.append(Credit(call, "print", None, value, lit))
        return credits


def _unwrap(node: ast.AST | None) -> ast.AST | None:
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.args
        and node.func.id in {"str", "float", "round", "min", "max"}
    ):
        node = node.args[0]
    return node


def _leading_text(facts: Facts, node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        if node.values and isinstance(node.values[0], ast.Constant):
            return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
        return None
    if isinstance(node, ast.BinOp):
        return _leading_text(facts, node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _leading_text(facts, node.func.value)
    ok, value = facts.values.const(node)  # a template held in a name, a joined string
    return value if ok and isinstance(value, str) else None
