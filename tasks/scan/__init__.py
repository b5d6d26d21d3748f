"""Static scan of reward.py for forbidden patterns (agreement condition 5, DESIGN.md §2 and §3.1).

The scan parses the file (it never runs it) and applies the rules in `RULES`. It asks, with a
data-flow analysis over the AST, where each credited score comes from:

- facts.py: provenance. What every expression is computed from: file content and hub state (from a
  visible path, or from a hidden / answer-named file), folder listings, existence probes and
  metadata (sizes, mtimes), function values it cannot see, and inputs that are not the state
  (environment, argv, clock, randomness), followed through names and local functions to a fixed
  point.
- values.py: abstract evaluation. The constant values expressions fold to (`(3 - 2) * 1.0`,
  `len("x")`, a helper that returns 1), path strings, and an in-order interpretation of each body
  that gives the values a REWARD line can print and what runs when a try body fails.
- credit.py: where credit is given: REWARD prints, score-like variables and their increments,
  rewardkit components.

Scoring rules (rules.py) catch rewards that pay out without verifying the state: constant scores,
asserted flags, existence-only checks, credit from an error path, expected values from an answer
key, nondeterministic scores, a single component, scores above 1. Access rules (access.py) catch
graders that reach beyond the agent's final state: processes, run-time code, non-hub network,
paths outside /home/user, the generator's own scripts. Integrity rules (integrity.py) catch
patched grading machinery and REWARD lines other than one, last, on the main path.

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
from tasks.scan import access as scan_access
from tasks.scan import components as scan_components
from tasks.scan import integrity as scan_integrity
from tasks.scan import reached_paths as scan_reached_paths
from tasks.scan import rules as scan_rules
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
    scan_rules.constant_score,
    scan_rules.unconditional_flag,
    scan_rules.existence_only,
    scan_rules.score_from_exception,
    scan_rules.no_state_access,
    scan_components.too_few_components,
    scan_rules.score_can_exceed_one,
    scan_rules.answer_key,
    scan_rules.nondeterministic,
    scan_integrity.patches_grader,
    scan_integrity.reward_line,
    scan_value_classes.custom_value_class,
    scan_access.process_exec,
    scan_access.dynamic_code,
    scan_access.network,
    scan_sessions.foreign_session,
    scan_access.outside_env,
    scan_reached_paths.computed_outside_env,
    scan_access.reads_generator_scripts,
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
