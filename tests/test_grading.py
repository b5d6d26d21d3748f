"""What the grader accepts (tasks/grading.py, tasks/reward_contract.py): a plain ASCII decimal in
[0, 1] as the last line, equal to the BREAKDOWN's weighted components, and a BREAKDOWN of the
documented shape — every other output is MALFORMED with what was expected and what was found."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from infra.envs.base import ScriptResult
from tasks import reward_contract
from tasks.grading import parse_grade
from tasks.models import GradeFailure

REWARDKIT = Path(__file__).parents[1] / "skills" / "kit" / "guest" / "rewardkit.py"
ONE_FULL = {"components": [{"name": "a", "weight": 1.0, "score": 1.0, "status": "ok", "error": None}]}


def _run(stdout: str, exit_code: int = 0) -> ScriptResult:
    return ScriptResult(exit_code=exit_code, stdout=stdout, stderr="", duration_s=0.1)


def _output(breakdown: object, reward: str) -> str:
    text = breakdown if isinstance(breakdown, str) else json.dumps(breakdown)
    return f"BREAKDOWN: {text}\nREWARD: {reward}\n"


def _rewardkit_output(body: str) -> str:
    """What rewardkit really prints for these checks (the kit inlined, as every family's reward.py)."""
    source = REWARDKIT.read_text() + "\n" + body + "\nraise SystemExit(grade())\n"
    run = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize(
    "score",
    [
        "１.０",  # full-width digits: float() reads them
        "١",  # Arabic-Indic one
        "0_1",  # float("0_1") == 1.0
        "1e0",  # exponent
        "0.99999999999999999",  # reads as 1.0, says less than 1
        "1.0000000000000000001",  # reads as 1.0, says more than 1
        "1.5",
        "+1",
        "-0.0",
        ".5",
        "1.",
        "nan",
        "inf",
        "0x1",
        "1,0",
        "",
    ],
)
def test_only_plain_ascii_decimals_in_0_1_are_scores(score):
    grade = parse_grade(_run(_output(ONE_FULL, score)))
    assert grade.score is None and grade.failure is GradeFailure.MALFORMED
    assert f"score {score!r}" in grade.error


@pytest.mark.parametrize("line", ["REWARD:\u00a01.0", "REWARD: 1.0\u2003", "REWARD: 1.0 extra"])
def test_the_reward_line_is_plain_ascii_too(line):
    grade = parse_grade(_run(f"BREAKDOWN: {json.dumps(ONE_FULL)}\n{line}\n"))
    assert grade.failure is GradeFailure.MALFORMED and "`REWARD: <score>`" in grade.error


@pytest.mark.parametrize(
    ("score", "expected"),
    [("1.0", 1.0), ("1", 1.0), ("1.0000", 1.0), ("0.99995", None)],
)
def test_plain_spellings_of_a_full_score_pass(score, expected):
    grade = parse_grade(_run(_output(ONE_FULL, score)))
    if expected is None:  # within the tolerance of the components' 1.0, and said as it is
        assert grade.score == 0.99995
    else:
        assert grade.score == expected


ZERO_ZERO = {
    "components": [{"name": "a", "weight": 1.0, "score": 0.0}, {"name": "b", "weight": 1.0, "score": 0.0}]
}
PRECONDITION_FAILED = {
    "components": [{"name": "a", "weight": 1.0, "score": 1.0}],
    "preconditions": [{"name": "data file intact", "held": False, "status": "missing_output", "error": "x"}],
    "preconditions_failed": ["data file intact"],
}
QUARTER = {
    "components": [{"name": "a", "weight": 1.0, "score": 1.0}, {"name": "b", "weight": 3.0, "score": 0.0}]
}


@pytest.mark.parametrize(
    ("breakdown", "reward", "expected"),
    [
        (ZERO_ZERO, "1.0", "expected 0.0000"),  # every component 0, REWARD 1.0
        (PRECONDITION_FAILED, "1.0", "precondition(s) ['data file intact'] failed"),  # forfeits all
        (QUARTER, "0.5", "expected 0.2500"),  # the unweighted mean, not the weighted one
        (QUARTER, "0.251", "expected 0.2500"),  # off by more than SCORE_TOLERANCE
    ],
)
def test_the_reward_must_equal_the_weighted_components(breakdown, reward, expected):
    grade = parse_grade(_run(_output(breakdown, reward)))
    assert grade.score is None and grade.failure is GradeFailure.MALFORMED
    assert "does not match its BREAKDOWN" in grade.error and expected in grade.error
    assert grade.components  # the REVIEW still shows what the checks said


def test_the_tolerance_covers_rounding_and_nothing_more():
    assert parse_grade(_run(_output(QUARTER, "0.2501"))).score == 0.2501  # 4-decimal rounding
    assert parse_grade(_run(_output(QUARTER, "0.2503"))).score is None
    assert reward_contract.SCORE_TOLERANCE == 2e-4


def _component(**overrides):
    return {"components": [{"name": "a", "weight": 1.0, "score": 1.0, **overrides}]}


@pytest.mark.parametrize(
    ("breakdown", "says"),
    [
        ({"parts": []}, "expected the keys ['components']"),  # lacks components: no KeyError
        ({}, "(missing ['components'])"),
        ([1, 2], "expected an object, found list"),
        ({"components": []}, "expected at least one component, found an empty list"),
        ({"components": {"a": 1}}, "components: expected a list, found dict"),
        (
            '{"components": [{"name": "a", "weight": NaN, "score": 1}]}',
            "weight: expected a finite number > 0, found nan",
        ),
        ('{"components": [{"name": "a", "weight": Infinity, "score": 1}]}', "found inf"),
        ('{"components": [{"name": "a", "weight": 1e400, "score": 1}]}', "found inf"),  # JSON overflow
        (_component(weight=-1.0), "found -1.0"),
        (_component(weight=0), "expected a finite number > 0, found 0"),
        (_component(weight="1"), "found '1'"),
        (_component(weight=True), "found True"),
        (_component(score=1.5), "score: expected a number in [0, 1], found 1.5"),
        ('{"components": [{"name": "a", "weight": 1, "score": NaN}]}', "found nan"),
        (_component(status="passed"), "status: expected one of ['ok', 'missing_output'"),
        (_component(error=3), "error: expected a string or null, found int"),
        (_component(weigth=1.0), "(unknown ['weigth'])"),
        ({"components": [{"weight": 1, "score": 1}]}, "(missing ['name'])"),
        (_component(name=""), "name: expected a non-empty string"),
        ('{"components": [], "components": [{"name": "a", "weight": 1, "score": 1}]}', "'components' twice"),
        ('{"components": [{"name": "a", "weight": 1, "weight": 9, "score": 1}]}', "'weight' twice"),
        ({**ONE_FULL, "preconditions": [{"name": "p", "held": "yes"}]}, "held: expected true or false"),
        ({**ONE_FULL, "preconditions": {"p": True}}, "preconditions: expected a list, found dict"),
        (
            {**ONE_FULL, "preconditions": [{"name": "p", "held": True}], "preconditions_failed": ["p"]},
            "expected the preconditions whose held is false, [], found ['p']",
        ),
        ("{components: [", "expected a JSON object, found invalid JSON"),
    ],
)
def test_a_malformed_breakdown_says_what_was_expected_and_found(breakdown, says):
    grade = parse_grade(_run(_output(breakdown, "1.0")))
    assert grade.score is None and grade.failure is GradeFailure.MALFORMED
    assert grade.error.startswith("the BREAKDOWN line is not valid: "), grade.error
    assert "expected" in grade.error and "found" in grade.error
    assert says in grade.error, grade.error


CHECKS = """
@component("first", 0.3)
def first():
    return 1 / 3

@component("second", 0.7)
def second():
    return True
"""


@pytest.mark.parametrize(
    ("body", "score"),
    [
        (CHECKS, round(0.3 / 3 + 0.7, 4)),  # partial credit, rounded to 4 decimals twice
        (CHECKS.replace("return True", "return 2 / 3"), round(0.1 + 0.7 * 2 / 3, 4)),
        (CHECKS.replace("return True", "open('/nonexistent/out.xlsx')"), 0.1),  # missing_output
        (CHECKS + '\n@precondition("p")\ndef p():\n    return False\n', 0.0),  # forfeits every component
        (CHECKS.replace("return 1 / 3", "return 1.0"), 1.0),
    ],
)
def test_what_rewardkit_prints_passes(body, score):
    grade = parse_grade(_run(_rewardkit_output(body)))
    assert grade.failure is None, grade.error
    assert grade.score == score


@pytest.mark.parametrize(
    ("stdout", "score"),
    [
        # tests/test_role_blindness.py: components with name, weight and score only
        (_output({"components": [{"name": "role", "weight": 1.0, "score": 1.0}]}, "1.0"), 1.0),
        # tests/test_mutation_fail_closed.py: status given, an empty preconditions list
        (
            _output(
                {
                    "components": [
                        {"name": "a", "weight": 0.5, "score": 1.0, "status": "ok"},
                        {"name": "b", "weight": 0.5, "score": 0.0, "status": "ok"},
                    ],
                    "preconditions": [],
                },
                "0.5",
            ),
            0.5,
        ),
        # tests/scan_corpus/legit/rewardkit_style.py: preconditions_failed without preconditions
        (
            _output(
                {
                    "components": [{"name": "a", "weight": 1, "score": 1, "error": None}],
                    "preconditions_failed": ["p"],
                },
                "0.0",
            ),
            0.0,
        ),
        # the same name twice is two checks (tests/scan_corpus/legit/same_name_components.py)
        (_output({"components": [{"name": "a", "weight": 1, "score": 1}] * 2}, "1.0"), 1.0),
        # every digit a float holds
        (
            _output(
                {
                    "components": [
                        {"name": "a", "weight": 1, "score": 0.1},
                        {"name": "b", "weight": 1, "score": 0.2},
                    ]
                },
                "0.15000000000000002",
            ),
            0.15000000000000002,
        ),
    ],
)
def test_hand_written_breakdowns_of_the_documented_shape_pass(stdout, score):
    grade = parse_grade(_run(stdout))
    assert grade.failure is None, grade.error
    assert grade.score == score


def test_the_contract_module_runs_alone():
    # The OSWorld export runs its source with `python3 -c` in a VM: the standard library only.
    tree = ast.parse(Path(reward_contract.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
