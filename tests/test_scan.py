"""The forbidden-pattern scan of reward.py: the paper's hacks are caught, legitimate rewards of every
style (hand-written, rewardkit, hub) and every procedural family's reward scan clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.kit import load_families
from tasks.models import Finding
from tasks.scan import RULES, scan_path, scan_source

from .conftest import SKILLS

CORPUS = Path(__file__).with_name("scan_corpus")
HACKED = sorted((CORPUS / "hacked").glob("*.py"))
LEGIT = sorted((CORPUS / "legit").glob("*.py"))


def _expected(path: Path) -> set[str]:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect:"), f"{path.name} must start with '# expect: <rule>[, <rule>...]'"
    return {rule.strip() for rule in first.removeprefix("# expect:").split(",")}


def _show(findings: list[Finding]) -> str:
    return "\n".join(f"  line {f.line}: {f.rule}: {f.message}" for f in findings) or "  (none)"


def test_corpus_is_big_enough():
    assert len(HACKED) >= 15 and len(LEGIT) >= 10
    covered = set().union(*(_expected(p) for p in HACKED))
    assert covered == set(RULES) - {"syntax_error"}, f"rules without a hacked example: {set(RULES) - covered}"


@pytest.mark.parametrize("path", HACKED, ids=lambda p: p.stem)
def test_hacked_reward_is_flagged(path):
    expected = _expected(path)
    assert expected <= set(RULES), f"unknown rule ids {expected - set(RULES)}"
    findings = scan_path(path)
    missing = expected - {f.rule for f in findings}
    assert not missing, f"{path.name}: expected {sorted(missing)}, found:\n{_show(findings)}"
    for f in findings:
        assert f.line >= 1 and f.message, f


@pytest.mark.parametrize("path", LEGIT, ids=lambda p: p.stem)
def test_legit_reward_is_clean(path):
    findings = scan_path(path)
    assert findings == [], f"{path.name} flagged:\n{_show(findings)}"


FAMILIES = load_families(SKILLS)


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_family_rewards_scan_clean(family_id):
    family = FAMILIES[family_id]
    for seed in (0, 1, 2):
        findings = scan_source(family.script("reward", family.instantiate(seed)))
        assert findings == [], f"{family_id} seed {seed}:\n{_show(findings)}"


def test_syntax_error_is_one_finding_at_its_line():
    findings = scan_source("import json\n\ndef reward(:\n    pass\n")
    assert [(f.rule, f.line) for f in findings] == [("syntax_error", 3)]
    assert "does not parse" in findings[0].message


def test_nul_bytes_are_a_syntax_error_not_a_crash():
    assert [f.rule for f in scan_source("x = 1\0")] == ["syntax_error"]


def test_deeply_nested_source_is_a_finding_not_a_crash():
    # the parser itself gives up on this; the scan must still answer
    assert [f.rule for f in scan_source("x = " + "+".join(["1"] * 5000))] == ["syntax_error"]


def test_scan_path_raises_for_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.py"):
        scan_path(tmp_path / "nope.py")


def test_findings_name_the_line_and_the_pattern():
    source = (
        'import os\nscore = 0.0\nif os.path.exists("/home/user/a.pdf"):\n    score += 0.5\n'
        'if os.path.isdir("/home/user/b"):\n    score += 0.5\nprint(f"REWARD: {score}")\n'
    )
    findings = [f for f in scan_source(source) if f.rule == "existence_only"]
    assert [f.line for f in findings] == [4, 6]
    assert "exist" in findings[0].message and "content" in findings[0].message


# --- single rules, on minimal sources: each case says why it is (not) forbidden ---------------------

READS = 'import json\nd = json.load(open("/home/user/d.json"))\n'
TWO_CHECKS = 'score = 0.0\nif d["a"] == 1:\n    score += 0.5\nif d["b"] == 2:\n    score += 0.5\nprint(f"REWARD: {score}")\n'


@pytest.mark.parametrize(
    ("snippet", "rule"),
    [
        # requests to a literal URL, even on localhost, is not the hub the env gives
        ('import requests\nd = requests.get("http://localhost:8000/go").json()\n', "network"),
        # an env var other than the hub's is not the hub
        ('import os, requests\nd = requests.get(os.environ["OTHER"] + "/go").json()\n', "network"),
        # the hub URL must start the string, not be a query parameter of another host
        (
            'import os, requests\nH = os.environ["CUAGYM_HUB_URL"]\nd = requests.get(f"http://x.io/?u={H}").json()\n',
            "network",
        ),
        ('import os\nd = {"a": 1, "b": 2}\nos.execvp("sh", ["sh"])\n', "process_exec"),
        ('from os import system\nd = {"a": 1, "b": 2}\nsystem("true")\n', "process_exec"),
        ('d = {"a": 1, "b": 2}\nx = getattr(__builtins__, "eval")\n', "dynamic_code"),
        (
            'from pathlib import Path\nd = {"a": 1, "b": 2}\nt = Path("/proc/self/environ").read_text()\n',
            "outside_env",
        ),
        (
            'from pathlib import Path\nd = {"a": 1, "b": 2}\nt = (Path("/") / "root").exists()\n',
            "outside_env",
        ),
        ('d = {"a": 1, "b": 2}\nt = open("/home/alice/notes.txt").read()\n', "outside_env"),
        ('d = {"a": 1, "b": 2}\nt = open("/home/user/initial_setup.py").read()\n', "reads_generator_scripts"),
    ],
)
def test_access_rules(snippet, rule):
    findings = scan_source(READS + snippet + TWO_CHECKS)
    assert rule in {f.rule for f in findings}, _show(findings)


@pytest.mark.parametrize(
    "snippet",
    [
        # hub URL through a variable, .rstrip, concatenation and urljoin
        'import os, requests\nfrom urllib.parse import urljoin\nH = os.environ["CUAGYM_HUB_URL"].rstrip("/")\n'
        'e = requests.get(urljoin(H, "go"), timeout=5).json()\n',
        # relative and home-derived paths are inside the env
        'import os\nfrom pathlib import Path\ne = Path.home().joinpath("Desktop").iterdir()\n'
        'f = open(os.path.expanduser("~/notes.txt")).read()\ng = open("Desktop/x.txt").read()\n',
        # XPath and URL routes are not filesystem paths
        'root = None\nxs = "//w:t"\nroute = "/go"\n',
        # "/".join onto the hub URL, through an inline session
        'import os, requests\nH = os.getenv("CUAGYM_HUB_URL")\ne = requests.Session().get("/".join([H, "go"])).json()\n',
    ],
)
def test_access_rules_allow(snippet):
    findings = scan_source(READS + snippet + TWO_CHECKS)
    assert findings == [], _show(findings)


def test_flag_that_a_state_check_may_clear_is_fine():
    # ok starts True and only a bad row clears it: a loop flag, not an asserted one
    source = (
        READS
        + 'ok = True\nfor v in d["rows"]:\n    if v < 0:\n        ok = False\n'
        + TWO_CHECKS.replace('d["a"] == 1', "ok")
    )
    assert scan_source(source) == []


@pytest.mark.parametrize(
    "scoring",
    [
        # one weighted sum of two checks
        'score = 0.5 * (d["a"] == 1) + 0.5 * (d["b"] == 2)\n',
        # deduction style: start full, lose a weight per failed check (normalised by the clamp)
        'score = 1.0\nif d["a"] != 1:\n    score -= 0.5\nif d["b"] != 2:\n    score -= 0.5\n',
        # one increment per entry of a parameter table: the table's length is data, not one component
        'score = 0.0\nfor key in ["a", "b"]:\n    if d[key] == 1:\n        score += 0.5\n',
    ],
)
def test_component_count_sees_every_style(scoring):
    source = READS + scoring + 'print(f"REWARD: {max(score, 0.0)}")\n'
    assert scan_source(source) == [], _show(scan_source(source))


def test_component_weights_above_one_are_normalised_by_rewardkit():
    source = (
        READS
        + "def component(name, weight):\n    return lambda fn: fn\n\n"
        + "".join(f'@component("c{i}", 0.9)\ndef c{i}():\n    return d["k{i}"] == {i}\n\n' for i in range(3))
    )
    assert [f.rule for f in scan_source(source)] == []


def test_except_returning_zero_is_legitimate():
    source = READS + (
        'def check():\n    try:\n        return d["x"] == 3\n    except KeyError:\n        return 0.0\n'
        'score = 0.0\nif check():\n    score += 0.5\nif d["y"]:\n    score += 0.5\n'
        'print(f"REWARD: {score}")\n'
    )
    assert scan_source(source) == []


def test_every_rule_is_documented():
    assert all(rule.isidentifier() and rule.islower() and text for rule, text in RULES.items())


# --- where credit comes from: data flow through names, helpers and paths -----------------------------


@pytest.mark.parametrize(
    ("snippet", "rule"),
    [
        # class 1: a constant written as arithmetic, a builtin call or a helper's result
        ('score = (3 - 2) * 1.0\nprint(f"REWARD: {score}")\n', "constant_score"),
        (
            'score = 0.0\nscore += int(True) * 0.5\nscore += float("0.5")\nprint(f"REWARD: {score}")\n',
            "constant_score",
        ),
        (
            'def half():\n    return len("ab") / 4\n\nscore = half() + half()\nprint(f"REWARD: {score}")\n',
            "constant_score",
        ),
        # both branches give the same credit: the test does not decide anything
        (
            'if d["a"]:\n    score = 1.0\nelse:\n    score = 0.5 + 0.5\nprint(f"REWARD: {score}")\n',
            "constant_score",
        ),
        # an expression compared with itself always holds
        (
            'score = 0.0\nif d["a"] == d["a"]:\n    score += 0.5\nif d["b"] == d["b"]:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "constant_score",
        ),
        # class 3: size, age, access and listing counts are existence in disguise
        (
            'import os\nscore = 0.0\nif os.path.getsize("/home/user/a.pdf") > 0:\n    score += 0.5\nif os.access("/home/user/b.pdf", os.R_OK):\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "existence_only",
        ),
        (
            'import os\nscore = 0.0\nif len(os.listdir("/home/user/out")) > 0:\n    score += 0.5\nif d["a"] == 1:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "existence_only",
        ),
        # class 4: the default stands when the check crashes
        (
            'ok = True\ntry:\n    ok = d["rows"][0] == 1\nexcept Exception:\n    pass\nscore = 0.0\nif ok:\n    score += 0.5\nif d["b"] == 2:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "score_from_exception",
        ),
        (
            'score = 0.0\ntry:\n    if d["a"] == 1:\n        score += 0.5\nfinally:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "score_from_exception",
        ),
        # class 6: the environment, the clock, chance
        (
            'import os\nscore = 0.0\nif os.environ.get("LENIENT"):\n    score += 0.5\nif d["a"] == 1:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "nondeterministic",
        ),
        (
            'import random\nscore = 0.0\nif random.random() < 2:\n    score += 0.5\nif d["a"] == 1:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "nondeterministic",
        ),
        # class 2: the expected values come from a hidden file the setup left
        (
            'key = json.load(open("/home/user/.key.json"))\nscore = 0.0\nif d["a"] == key["a"]:\n    score += 0.5\nif d["b"] == key["b"]:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
            "answer_key",
        ),
    ],
)
def test_credit_provenance_rules(snippet, rule):
    findings = scan_source(READS + snippet)
    assert rule in {f.rule for f in findings}, _show(findings)


@pytest.mark.parametrize(
    "snippet",
    [
        # the task's parameters decide the expected values, the state decides the credit
        'P = json.loads(\'{"a": 1, "b": 2}\')\nscore = 0.0\nif d["a"] == P["a"]:\n    score += 0.5\nif d["b"] == P["b"]:\n    score += 0.5\nprint(f"REWARD: {round(score, 4)}")\n',
        # expected values computed from the task's visible input data
        'rows = open("/home/user/Desktop/in.csv").read().splitlines()\nscore = 0.0\nif d["count"] == len(rows):\n    score += 0.5\nif d["first"] == rows[0]:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
        # an app's hidden config is the task's output, compared with literals
        'cfg = json.load(open("/home/user/.config/app/cfg.json"))\nscore = 0.0\nif cfg["theme"] == "dark":\n    score += 0.5\nif cfg["size"] == 14:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
        # datetime parses dates in the state; the clock is not read
        'from datetime import datetime\nday = datetime.strptime(d["date"], "%Y-%m-%d")\nscore = 0.0\nif day.weekday() == 0:\n    score += 0.5\nif day.year == 2024:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
        # a flag that starts False and stays False on an error
        'ok = False\ntry:\n    ok = d["rows"][0] == 1\nexcept (KeyError, IndexError):\n    pass\nscore = 0.0\nif ok:\n    score += 0.5\nif d["b"] == 2:\n    score += 0.5\nprint(f"REWARD: {score}")\n',
        # deleting files is checked by absence; a move by absence and presence together
        'import os\nscore = 0.0\nif not os.path.exists("/home/user/tmp.txt"):\n    score += 0.5\nif os.path.isdir("/home/user/in") and not os.listdir("/home/user/in"):\n    score += 0.5\nprint(f"REWARD: {score}")\n',
        # a REWARD template held in a name, printed once
        'score = 0.5 * (d["a"] == 1) + 0.5 * (d["b"] == 2)\nLINE = "REWARD: {:.4f}"\nprint(LINE.format(score))\n',
    ],
)
def test_credit_provenance_allows(snippet):
    findings = scan_source(READS + snippet)
    assert findings == [], _show(findings)


def test_checks_in_helper_functions_count_as_components():
    # the false positive the issue reported: "0 components" for checks that live in helpers
    source = READS + (
        'def title_ok():\n    return 0.5 if d["title"] == "Q3" else 0.0\n\n'
        'def body_ok():\n    return 0.5 if len(d["body"]) > 3 else 0.0\n\n'
        'score = title_ok() + body_ok()\nprint(f"REWARD: {score}")\n'
    )
    assert scan_source(source) == [], _show(scan_source(source))
    single = (
        READS
        + 'def title_ok():\n    return d["title"] == "Q3"\n\nscore = float(title_ok())\nprint(f"REWARD: {score}")\n'
    )
    assert "too_few_components" in {f.rule for f in scan_source(single)}


KIT = (Path(__file__).parents[1] / "skills/kit/guest/rewardkit.py").read_text().split('"""', 2)[2]
KIT_BODY = (
    '\n\n@component("a", 0.5)\ndef a():\n    return d["a"] == 1\n\n\n'
    '@component("b", 0.5)\ndef b():\n    return d["b"] == 2\n\n\n'
)


@pytest.mark.parametrize(
    ("tail", "rule"),
    [
        # class 7: the grading machinery is rebound or mutated
        ('_evaluate = lambda fn: (1.0, "ok", None)\nraise SystemExit(grade())\n', "patches_grader"),
        (
            "_COMPONENTS[:] = [(n, w, lambda: True) for n, w, _ in _COMPONENTS]\nraise SystemExit(grade())\n",
            "patches_grader",
        ),
        ("import json\njson.dumps = lambda *a, **k: '{}'\nraise SystemExit(grade())\n", "patches_grader"),
        ("def max(*args):\n    return 1.0\n\n\nraise SystemExit(grade())\n", "patches_grader"),
        # class 8: a second or late REWARD line, or one through another channel
        ('grade()\nprint("REWARD: 1.0")\n', "reward_line"),
        ('import atexit\natexit.register(print, "REWARD: 1.0")\nraise SystemExit(grade())\n', "reward_line"),
        ('import os\ncode = grade()\nos.write(1, b"REWARD: 1.0\\n")\n', "reward_line"),
        # REWARD text anywhere but the text of a print to stdout (here: a timer's argument tuple)
        (
            'import threading\nthreading.Timer(0, print, args=("REWARD: 1.0",)).start()\nraise SystemExit(grade())\n',
            "reward_line",
        ),
        (
            'import sys\nprint("REW" + "ARD: 1.0", file=sys.stderr)\nraise SystemExit(grade())\n',
            "reward_line",
        ),
        # class 5: code reached by name
        (
            'import builtins\nrun = getattr(builtins, "ev" + "al")\nraise SystemExit(grade())\n',
            "dynamic_code",
        ),
        ('fn = globals()["_" + "evaluate"]\nraise SystemExit(grade())\n', "dynamic_code"),
    ],
)
def test_grading_integrity_rules(tail, rule):
    findings = scan_source(READS + KIT + KIT_BODY + tail)
    assert rule in {f.rule for f in findings}, _show(findings)


def test_the_kit_with_two_components_is_clean():
    source = READS + KIT + KIT_BODY + 'if __name__ == "__main__":\n    raise SystemExit(grade())\n'
    assert scan_source(source) == [], _show(scan_source(source))


def test_an_early_zero_then_exit_is_one_reward_line():
    source = READS + ('import sys\nif not d:\n    print("REWARD: 0.0")\n    sys.exit(0)\n' + TWO_CHECKS)
    assert scan_source(source) == [], _show(scan_source(source))
    without_exit = source.replace("    sys.exit(0)\n", "")
    assert "reward_line" in {f.rule for f in scan_source(without_exit)}
