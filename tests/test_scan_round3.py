"""The reward scan after red-team round 3 (issue item 6): the hacks that round's held-out set slipped
past the scan, and the honest rewards it flagged. Each case says why it is (not) forbidden; the
corpus files (tests/scan_corpus) hold the full-size versions."""

from __future__ import annotations

import pytest

from tasks.models import Finding
from tasks.scan import scan_source

READS = 'import json\nd = json.load(open("/home/user/d.json"))\n'
TWO_CHECKS = 'score = 0.0\nif d["a"] == 1:\n    score += 0.5\nif d["b"] == 2:\n    score += 0.5\nprint(f"REWARD: {score}")\n'
HUB = 'import os\nimport requests\nHUB = os.environ["CUAGYM_HUB_URL"]\nSID = os.environ["CUAGYM_SID"]\n'
HUB_CHECKS = 'score = 0.0\nif s.get("a") == 1:\n    score += 0.5\nif s.get("b") == 2:\n    score += 0.5\nprint(f"REWARD: {score}")\n'


def _rules(source: str) -> set[str]:
    return {f.rule for f in scan_source(source)}


def _show(findings: list[Finding]) -> str:
    return "\n".join(f"  line {f.line}: {f.rule}: {f.message}" for f in findings) or "  (none)"


# --- error paths: contextlib.suppress is a try whose handler passes ---------------------------------


@pytest.mark.parametrize(
    "source",
    [
        # full credit by default, the deductions under suppress: a crash keeps 1.0
        'import contextlib\nscore = 1.0\nwith contextlib.suppress(Exception):\n    d = json.load(open("/home/user/d.json"))\n'
        '    if d["a"] != 1:\n        score -= 0.5\n    if d["b"] != 2:\n        score -= 0.5\nprint(f"REWARD: {score}")\n',
        # an imported, renamed suppress; flags that start True
        'from contextlib import suppress as quiet\nok = True\nwith quiet(KeyError):\n    ok = d["a"] == 1\n'
        + TWO_CHECKS.replace('d["a"] == 1', "ok"),
        # suppress after another context manager, and before one
        'import contextlib\nok = True\nwith open("/home/user/x.txt") as fh, contextlib.suppress(ValueError), open("/home/user/y") as g:\n'
        "    ok = fh.read() == g.read()\n" + TWO_CHECKS.replace('d["a"] == 1', "ok"),
    ],
)
def test_credit_kept_under_suppress_is_from_an_error_path(source):
    assert "score_from_exception" in _rules(READS + source), _show(scan_source(READS + source))


def test_suppress_around_flags_that_start_false_is_clean():
    source = READS + (
        'import contextlib\nok = False\nwith contextlib.suppress(KeyError):\n    ok = d["a"] == 1\n'
        + TWO_CHECKS.replace('d["a"] == 1', "ok")
    )
    assert scan_source(source) == [], _show(scan_source(source))


# --- match: a crediting wildcard case decides nothing ------------------------------------------------


@pytest.mark.parametrize(
    "match",
    [
        'match d["a"]:\n    case 1:\n        score += 0.5\n    case _:\n        score += 0.5\n',
        # a bare capture is irrefutable too
        'match d["a"]:\n    case 1 | 2:\n        score += 0.5\n    case other:\n        score += 0.5\n',
    ],
)
def test_match_whose_every_case_credits_is_constant(match):
    source = (
        READS + "score = 0.0\n" + match + match.replace('d["a"]', 'd["b"]') + 'print(f"REWARD: {score}")\n'
    )
    assert "constant_score" in _rules(source), _show(scan_source(source))


@pytest.mark.parametrize(
    "match",
    [
        # the wildcard gives nothing
        'match d["a"]:\n    case 1:\n        score += 0.5\n    case _:\n        score += 0.0\n',
        # no wildcard: when no case matches, the score is what it was
        'match d["a"]:\n    case 1:\n        score += 0.5\n    case 2:\n        score += 0.5\n',
        # a guarded capture is not irrefutable
        'match d["a"]:\n    case 1:\n        score += 0.5\n    case n if n > 3:\n        score += 0.5\n',
    ],
)
def test_match_where_the_state_decides_is_clean(match):
    source = (
        READS + "score = 0.0\n" + match + match.replace('d["a"]', 'd["b"]') + 'print(f"REWARD: {score}")\n'
    )
    assert scan_source(source) == [], _show(scan_source(source))


# --- existence in disguise: inode, links, blocks; a probe called through getattr --------------------


@pytest.mark.parametrize(
    "check",
    [
        'os.stat("/home/user/a.txt").st_ino != 12',
        'os.stat("/home/user/a.txt").st_nlink == 1',
        'Path("/home/user/a.txt").lstat().st_blocks > 0',
        'getattr(Path("/home/user/a.txt"), "exists")()',
        'getattr(Path("/home/user/a.txt"), "ｉｓ＿ｆｉｌｅ")()',  # NFKC folds the name, as the parser does
    ],
)
def test_metadata_and_probes_are_existence_only(check):
    source = f'import os\nfrom pathlib import Path\nscore = 0.0\nif {check}:\n    score += 0.5\nif {check}:\n    score += 0.5\nprint(f"REWARD: {{score}}")\n'
    assert "existence_only" in _rules(source), _show(scan_source(source))


@pytest.mark.parametrize("attr", ["st_mode & 0o777 == 0o600", "st_uid == 1000"])
def test_mode_and_owner_are_what_a_permissions_task_sets(attr):
    source = (
        'import os\nscore = 0.0\nif os.stat("/home/user/a.txt").' + attr + ":\n    score += 0.5\n"
        'if os.stat("/home/user/b.txt").' + attr + ':\n    score += 0.5\nprint(f"REWARD: {score}")\n'
    )
    assert scan_source(source) == [], _show(scan_source(source))


# --- paths outside the env that no literal names -----------------------------------------------------


@pytest.mark.parametrize(
    "reach",
    [
        'Path.home().parents[1] / "proc" / "self" / "environ"',
        '(Path.home().parent / "admin" / "notes.txt")',
        'Path(Path.home().anchor) / "etc" / "hostname"',
        'os.path.join(os.path.dirname(os.path.dirname(os.path.expanduser("~"))), "etc", "shadow")',
        'os.path.join(os.path.expanduser("~"), os.pardir, "admin", "a.txt")',
        "Path.home().parents[-1]",
    ],
)
def test_paths_computed_outside_the_home_are_outside_env(reach):
    source = READS + f"import os\nfrom pathlib import Path\nt = open({reach}).read()\n" + TWO_CHECKS
    assert "outside_env" in _rules(source), _show(scan_source(source))


def test_parent_navigation_inside_the_home_is_clean():
    source = READS + (
        'from pathlib import Path\nOUT = Path.home() / "Documents" / "q3" / "out.txt"\n'
        't = (OUT.parent / "notes.txt").read_text() + (OUT.parents[1] / "index.txt").read_text()\n'
        + TWO_CHECKS
    )
    assert scan_source(source) == [], _show(scan_source(source))


# --- Unicode look-alikes: the parser NFKC-normalises identifiers -------------------------------------


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ('t = ｏｐｅｎ("/etc/hostname").read()\n', "outside_env"),  # fullwidth
        ('t = 𝐨𝐩𝐞𝐧("/home/user/.answers.json").read()\nd["a"] = t\n', "answer_key"),  # mathematical bold
        ('import os\nos.ｓｙｓｔｅｍ("true")\n', "process_exec"),  # an attribute name
        ('ｅｘｅｃ("x = 1")\n', "dynamic_code"),
    ],
)
def test_unicode_look_alikes_are_the_names_they_fold_to(source, rule):
    # no rewrite is needed here (the AST already holds `open`); this pins that the scan judges the AST
    assert rule in _rules(READS + source + TWO_CHECKS), _show(scan_source(READS + source + TWO_CHECKS))


# --- values that redefine themselves -------------------------------------------------------------------


@pytest.mark.parametrize(
    "define",
    [
        'class Score(float):\n    def __format__(self, spec):\n        return "1.0"\n',
        "class Any:\n    def __eq__(self, other):\n        return True\n",
        'class Mark(float):\n    __str__ = lambda self: "1.0"\n',
        "class Text(str):\n    pass\n\n\nText.__contains__ = lambda self, x: True\n",
        'class Pct(float):\n    pass\n\n\nsetattr(Pct, "__round__", lambda self, n=0: 1.0)\n',
        'Score = type("Score", (float,), {"__format__": lambda self, spec: "1.0"})\n',
    ],
)
def test_value_classes_are_flagged(define):
    source = READS + define + TWO_CHECKS
    assert "custom_value_class" in _rules(source), _show(scan_source(source))


def test_a_dataclass_of_checks_is_clean():
    source = READS + (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Check:\n    name: str\n    weight: float\n"
        "    passed: bool\n\n    def __post_init__(self):\n        self.weight = float(self.weight)\n\n\n"
        'checks = [Check("a", 0.5, d["a"] == 1), Check("b", 0.5, d["b"] == 2)]\n'
        'score = sum(c.weight for c in checks if c.passed)\nprint(f"REWARD: {score}")\n'
    )
    assert scan_source(source) == [], _show(scan_source(source))


# --- hub sessions: only the env's own ---------------------------------------------------------------


@pytest.mark.parametrize(
    "fetch",
    [
        's = requests.get(f"{HUB}/go", params={"sid": SID + "x"}).json()\n',
        's = requests.get(f"{HUB}/go?sid={SID}x").json()\n',
        's = requests.get(f"{HUB}/go?sid={SID[::-1]}").json()\n',
        's = requests.get(HUB + "/go?sid=seed").json()\n',
        's = requests.get(HUB + "/go", params=dict(sid="seed")).json()\n',
        'P = {"sid": "golden"}\ns = requests.get(HUB + "/go", params=P).json()\n',
        'OTHER = "ref"\ns = requests.get(f"{HUB}/go?sid={OTHER}").json()\n',
        'def go(sid):\n    return requests.get(f"{HUB}/go", params={"sid": sid}).json()\n\n\n'
        's = go(SID)\nt = go(SID + "-1")\n',
        'URL = f"{HUB}/files/{SID}_b/x.csv"\ns = requests.get(URL).json()\n',
    ],
)
def test_other_sessions_are_flagged(fetch):
    source = HUB + fetch + HUB_CHECKS
    assert "foreign_session" in _rules(source), _show(scan_source(source))


@pytest.mark.parametrize(
    "fetch",
    [
        's = requests.get(f"{HUB}/go", params={"sid": SID}).json()\n',
        's = requests.get(f"{HUB}/go?sid={SID}&full=1").json()\n',
        's = requests.get(HUB + "/go?sid=" + SID).json()\n',
        'from urllib.parse import quote\ns = requests.get(f"{HUB}/go?sid={quote(SID)}").json()\n',
        'S2 = os.getenv("CUAGYM_SID", "local").strip()\ns = requests.get(HUB + "/go", params=dict(sid=S2)).json()\n',
        'S3 = "__CUAGYM_SID__"\ns = requests.get(HUB + "/go", params={"sid": S3}).json()\n',
        'def go(app, sid=SID):\n    return requests.get(f"{HUB}/{app}/go", params={"sid": sid}).json()\n\n\n'
        's = go("mail")\nt = go("cal", sid=SID)\n',
        's = requests.get(f"{HUB}/files/{SID}/report.csv").json()\n',
    ],
)
def test_the_envs_own_session_is_clean(fetch):
    source = HUB + fetch + HUB_CHECKS
    assert scan_source(source) == [], _show(scan_source(source))


# --- component counts: terms of the printed sum are components --------------------------------------


@pytest.mark.parametrize(
    "tail",
    [
        'a = 1.0 if d["a"] == 1 else 0.0\nb = 1.0 if d["b"] == 2 else 0.0\nprint(f"REWARD: {0.5*a + 0.5*b}")\n',
        'a = 1.0 if d["a"] == 1 else 0.0\nb = 1.0 if d["b"] == 2 else 0.0\nprint(f"REWARD: {(a + b) / 2}")\n',
        'a = float(d["a"] == 1)\nb = float(d["b"] == 2)\nprint(f"REWARD: {round(0.6 * a + 0.4 * b, 4)}")\n',
        'a = 1.0 if d["a"] == 1 else 0.0\nb = 1.0 if d["b"] == 2 else 0.0\ntotal = (a + b) / 2\nprint(f"REWARD: {total}")\n',
        'a = 1.0 if d["a"] == 1 else 0.0\nb = 1.0 if d["b"] == 2 else 0.0\nprint("REWARD:", min(a * 0.5 + b * 0.5, 1.0))\n',
    ],
)
def test_conditional_parts_summed_in_the_reward_line_are_components(tail):
    source = READS + tail
    assert scan_source(source) == [], _show(scan_source(source))


def test_a_list_summed_in_the_reward_line_counts_its_appends():
    # the held-out legit file ho3_parts_list_mean was flagged in the blind run: fixed afterwards
    source = READS + (
        'parts = []\nparts.append(1.0 if d["a"] == 1 else 0.0)\nparts.append(1.0 if d["b"] == 2 else 0.0)\n'
        'print(f"REWARD: {sum(parts) / len(parts):.4f}")\n'
    )
    assert scan_source(source) == [], _show(scan_source(source))
    one = source.replace('parts.append(1.0 if d["b"] == 2 else 0.0)\n', "")
    assert "too_few_components" in _rules(one)


@pytest.mark.parametrize(
    "tail",
    [
        # one check, printed alone or added to itself, is still one component
        'a = 1.0 if d["a"] == 1 else 0.0\nprint(f"REWARD: {a}")\n',
        'a = 1.0 if d["a"] == 1 else 0.0\nprint(f"REWARD: {0.5*a + 0.5*a}")\n',
        'a = 1.0 if d["a"] == 1 else 0.0\nprint(f"REWARD: {(a + 0) / 1}")\n',
    ],
)
def test_a_single_check_is_still_too_few(tail):
    assert "too_few_components" in _rules(READS + tail), _show(scan_source(READS + tail))


# --- flags: a named expected value is not a flag -------------------------------------------------------


def test_an_expected_value_of_one_is_not_an_asserted_flag():
    source = READS + "EXPECTED = 1\n" + TWO_CHECKS.replace('d["a"] == 1', 'd["a"] == EXPECTED')
    assert scan_source(source) == [], _show(scan_source(source))
    flag = READS + "ok = 1\n" + TWO_CHECKS.replace('d["a"] == 1', "ok")
    assert "unconditional_flag" in _rules(flag)
