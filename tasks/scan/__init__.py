"""Static scan of reward.py for forbidden patterns (agreement condition 5, DESIGN.md §2 and §3.1).

The scan parses the file (it never runs it) and applies the rules in `RULES`. It asks, with a
data-flow analysis over the AST, where each credited score comes from:

- file_index.py: the syntax facts. Import aliases, functions, name bindings, the control context
  of every node, and what each call looks at (call_kinds.py), over the walks of syntax.py.
- facts.py: provenance. What every expression is computed from (inspection.py's flags): file
  content and hub state (from a visible path, or from a hidden / answer-named file:
  reference_files.py), folder listings, existence probes and metadata (sizes, mtimes), function
  values it cannot see, and inputs that are not the state (environment, argv, clock, randomness),
  followed through names and local functions to a fixed point.
- values.py: abstract evaluation. The constant values expressions fold to (`(3 - 2) * 1.0`,
  `len("x")`, a helper that returns 1; value_sets.py), path strings (path_values.py), and an
  in-order interpretation of each body (runs.py) that gives the values a REWARD line can print and
  what runs when a try body fails.
- credit.py: where credit is given: REWARD prints, score-like variables and their increments,
  rewardkit components; scored_code.py: the code that decides each credit.

Credit rules (credit_rules.py, score_bounds.py, components.py, input_rules.py) catch rewards that
pay out without verifying the state: constant scores, asserted flags, existence-only checks, credit
from an error path, a single component, scores above 1, expected values from an answer key,
nondeterministic scores. Access rules catch graders that reach beyond the agent's final state:
processes and run-time code (run_time_code.py), non-hub network (hub_network.py, sessions.py),
paths outside /home/user and the generator's own scripts (env_paths.py, reached_paths.py).
Integrity rules catch patched grading machinery (grader_patches.py) and REWARD lines other than
one, last, on the main path (reward_line.py, reward_order.py).

It is a heuristic, tuned so that the rewards we ship (rewardkit `@component` rewards, hand-written
accumulations, hub rewards through `requests`) scan clean while reward hacks do not;
tests/scan_corpus holds examples of both, and a held-out set measured only at the end. What each
analysis cannot see is listed in its module's docstring.

Example:
    >>> [f.rule for f in scan_source('print("REWARD: 1.0")')]
    ['constant_score', 'no_state_access', 'too_few_components']
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

from tasks.models import Finding
from tasks.scan import components as scan_components
from tasks.scan import credit_rules as scan_credit_rules
from tasks.scan import env_paths as scan_env_paths
from tasks.scan import grader_patches as scan_grader_patches
from tasks.scan import hub_network as scan_hub_network
from tasks.scan import input_rules as scan_input_rules
from tasks.scan import reached_paths as scan_reached_paths
from tasks.scan import reward_line as scan_reward_line
from tasks.scan import run_time_code as scan_run_time_code
from tasks.scan import score_bounds as scan_score_bounds
from tasks.scan import sessions as scan_sessions
from tasks.scan import value_classes as scan_value_classes
from tasks.scan.credit import Facts
from tasks.scan.normalise import normalise

RULES: dict[str, str] = {
    "syntax_error": "reward.py does not parse as Python (or is nested too deeply to scan)",
    "constant_score": "credit no state check decides: constant REWARD print, unconditional increment, "
    "check returning a positive constant",
    "unconditional_flag": "a flag set True and never by a state check is scored (chart_verified = True)",
    "existence_only": "a scored check only tests that a path exists / a glob matches, never reads content",
    "score_from_exception": "an except handler gives credit (adds score, returns True/positive, prints REWARD > 0)",
    "no_state_access": "the reward never reads a file, lists a folder, probes a path or queries the hub",
    "too_few_components": "fewer than two scored components (no partial credit)",
    "score_can_exceed_one": "literal credits or weights sum above 1.0 with no clamp or normalisation",
    "process_exec": "starts processes: subprocess, os.system/popen/exec*/spawn*, pty, ctypes, multiprocessing",
    "dynamic_code": "runs code built at run time: exec, eval, compile, __import__, importlib, runpy",
    "network": "network access other than requests to a URL built from CUAGYM_HUB_URL",
    "foreign_session": 'a hub request for a session other than the env\'s CUAGYM_SID (SID + "x", a literal sid)',
    "outside_env": "a literal path outside /home/user (system folders, other homes, `..`, the root)",
    "reads_generator_scripts": "mentions golden_patch / initial_setup or looks next to its own file (__file__)",
    "answer_key": "a check compares the state with a hidden file or one named like an answer key "
    "(answers, expected, solution) instead of the task's parameters",
    "nondeterministic": "the score depends on the environment, argv, stdin, the clock, randomness, the "
    "process or the host (not the hub's CUAGYM_HUB_URL / CUAGYM_SID)",
    "patches_grader": "rebinds or mutates the grading machinery: rewardkit names, module-level functions, "
    "imported modules or classes, builtins, sys.modules",
    "custom_value_class": "a class redefines how a value prints, compares, converts or combines "
    "(__format__, __str__, __eq__, __contains__, __float__, __add__, ...)",
    "reward_line": "a REWARD line other than one, last, on the main path: a second or late REWARD, raw fd or "
    "sys.__stdout__ writes, stdout replaced, REWARD from callbacks (atexit, signal, __del__, threads)",
}

Rule = Callable[[Facts], Iterator[Finding]]
_CHECKS: tuple[Rule, ...] = (
    scan_credit_rules.constant_score,
    scan_credit_rules.unconditional_flag,
    scan_credit_rules.existence_only,
    scan_credit_rules.score_from_exception,
    scan_credit_rules.no_state_access,
    scan_components.too_few_components,
    scan_score_bounds.score_can_exceed_one,
    scan_input_rules.answer_key,
    scan_input_rules.nondeterministic,
    scan_grader_patches.patches_grader,
    scan_reward_line.reward_line,
    scan_value_classes.custom_value_class,
    scan_run_time_code.process_exec,
    scan_run_time_code.dynamic_code,
    scan_hub_network.network,
    scan_sessions.foreign_session,
    scan_env_paths.outside_env,
    scan_reached_paths.computed_outside_env,
    scan_env_paths.reads_generator_scripts,
)


def scan_source(source: str, *, filename: str = "reward.py") -> list[Finding]:
    """Every forbidden pattern in `source`, sorted by line; an empty list means the reward is clean.

    A file that does not parse (or is nested too deeply to parse or scan) gives exactly one
    `syntax_error` finding, at the offending line when known, since no other rule can run on it. At
    most one finding per (rule, line). Never raises on bad input.
    """
    try:
        tree = ast.parse(source, filename=filename)
    except (SyntaxError, ValueError) as exc:  # ValueError: source with NUL bytes
        line = getattr(exc, "lineno", None) or 1
        return [Finding(rule="syntax_error", line=line, message=f"{filename} does not parse: {exc}")]
    except RecursionError:
        return [_too_deep(filename)]
    found: dict[tuple[str, int], Finding] = {}
    try:
        facts = Facts(normalise(tree))
        for check in _CHECKS:
            for finding in check(facts):
                found.setdefault((finding.rule, finding.line), finding)
    except RecursionError:  # a grader nested this deeply is not one we can vouch for
        return [_too_deep(filename)]
    return sorted(found.values(), key=lambda f: (f.line, f.rule))


def _too_deep(filename: str) -> Finding:
    return Finding(
        rule="syntax_error",
        line=1,
        message=f"{filename} is nested too deeply to parse or scan; flatten its expressions",
    )


def scan_path(path: Path) -> list[Finding]:
    """`scan_source` of a file on disk; raises OSError (FileNotFoundError, ...) if it cannot be read.
    Undecodable bytes are replaced, so a binary file reports `syntax_error` rather than crashing."""
    return scan_source(Path(path).read_text(encoding="utf-8", errors="replace"), filename=str(path))
