"""The reward scanner's input rules: what a credit may be computed from.

- answer_key: a check compares the state with a hidden file or a file named like an answer key.
- nondeterministic: the credit depends on the environment, argv, the clock or randomness.

The *credit region* is the code a credit is computed from: the guards and values of credits, the
bodies of components and scored checks, the REWARD values, and, followed through names and local
calls, everything those read. These rules look only there (environment, argv and stdin reads are
flagged anywhere).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.reference_files import answer_named
from tasks.scan.scored_code import deciders, per_file, scored_closure
from tasks.scan.syntax import DEFS, kids


@per_file
def credit_region(facts: Facts) -> dict[int, ast.AST]:
    """Every node some credit is computed from (see the module docstring), by id."""
    roots: list[ast.AST] = [*deciders(facts), *(v for _, v, _ in facts.reward_prints if v is not None)]
    for fn in [*scored_closure(facts), *facts.lambda_components]:
        roots.extend(fn.body if isinstance(fn.body, list) else [fn.body])
    return _reach(facts, roots)


def _reach(facts: Facts, roots: list[ast.AST]) -> dict[int, ast.AST]:
    found: dict[int, ast.AST] = {}
    names_done: set[str] = set()
    fns_done: set[str] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in found or isinstance(node, DEFS):
            continue
        found[id(node)] = node
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in names_done:
            names_done.add(node.id)
            for b in facts.bindings.get(node.id, []):
                stack.extend(b.sources)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fname = node.func.id
            if fname in facts.functions and fname not in fns_done:
                fns_done.add(fname)
                for fn in facts.functions[fname]:
                    stack.extend(fn.body)
        stack.extend(kids(node))
    return found


def answer_key(facts: Facts) -> Iterator[Finding]:
    """The expected values come from the state instead of the task: a read of a file named like an
    answer key (answers, expected, solution, golden, ...), or a scored comparison of the state with
    something read only from a hidden file (one the setup left, like `~/.answers.json` or
    `Desktop/.ref.csv`; an app's own config under ~/.config, ~/.local, ~/.bashrc does not count).
    The agent can read such a file, and can rewrite it to match whatever it produced."""
    for call in (n for n in facts.nodes if isinstance(n, ast.Call) and facts.call_kind(n) == "read"):
        path = facts.read_path(call)
        found = facts.values.paths(path) if path is not None else None
        hit = (
            next((p for p in sorted(found) if answer_named(p) and "/." in f"/{p}"), None)
            if isinstance(found, frozenset)
            else None
        )
        if hit:  # hidden *and* named like an answer key: ~/.answers.json, ~/.cache/expected.csv
            yield Finding(
                rule="answer_key",
                line=call.lineno,
                message=f"reads {hit!r}, a hidden file named like an answer key: the expected values must "
                "come from the task's parameters (or be computed from its input data)",
            )
    for node in credit_region(facts).values():
        if not isinstance(node, ast.Compare):
            continue
        sides = [facts.inspect(x) for x in [node.left, *node.comparators]]
        key = next(
            (i for i, s in enumerate(sides) if s.hidden and not (s.plain or s.opaque or s.names)), None
        )
        if key is not None and any(s.plain or s.names for i, s in enumerate(sides) if i != key):
            yield Finding(
                rule="answer_key",
                line=node.lineno,
                message=f"`{ast.unparse(node)[:60]}` compares the state with values read only from a "
                "hidden file or one named like an answer key (left by the setup): the expected values "
                "must come from the task's parameters or its visible input data",
            )


def nondeterministic(facts: Facts) -> Iterator[Finding]:
    """The score must be a function of the final state and the task. Environment variables (other
    than the hub helper's CUAGYM_HUB_URL / CUAGYM_SID, and HOME), argv and stdin are flagged wherever
    they are read; the clock, randomness, the process id and the host name wherever a credit, a
    component or a precondition is computed from them (a settle-wait with time.sleep is fine)."""
    region = credit_region(facts)
    pre = _reach(facts, [s for fn in facts.preconditions for s in fn.body])
    for node, why in facts.nondet_sources:
        anywhere = why.startswith("reads")
        if anywhere or id(node) in region or id(node) in pre:
            yield Finding(
                rule="nondeterministic",
                line=node.lineno,
                message=f"{why}: a grader must depend only on the final state and the task's parameters, "
                "not on the environment, the command line, the clock or chance",
            )
