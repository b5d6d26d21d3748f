"""The reward helper put above a reward.py that uses it without defining it (what an LLM
Discriminator writes, shown only the helper's interface), and shown as one line to critics."""

from __future__ import annotations

import subprocess
import sys

from skills.kit import collapse_rewardkit, rewardkit_source, with_rewardkit
from skills.kit.render import REWARDKIT_BANNER

CHECKS = """import json
from pathlib import Path


@component("the note says done", 1.0)
def _done():
    return json.loads(Path("note.json").read_text())["done"] is True


@component("the note has a title", 1.0)
def _title():
    return bool(json.loads(Path("note.json").read_text()).get("title"))


raise SystemExit(grade())
"""


def test_checks_alone_get_the_tested_helper_above_them_and_run(tmp_path):
    source = with_rewardkit(CHECKS)
    assert source.startswith(REWARDKIT_BANNER) and rewardkit_source().strip() in source
    assert source.endswith(CHECKS)
    (tmp_path / "note.json").write_text('{"done": true}')
    out = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "REWARD: 0.5"  # the helper really graded: one of two checks


def test_a_future_import_stays_first():
    source = with_rewardkit("from __future__ import annotations\n" + CHECKS)
    assert source.startswith("from __future__ import annotations\n" + REWARDKIT_BANNER)
    compile(source, "reward.py", "exec")


def test_sources_that_define_the_names_or_do_not_parse_are_left_as_written():
    own_copy = rewardkit_source() + CHECKS  # a verbatim copy of the helper
    assert with_rewardkit(own_copy) == own_copy
    own_grade = "def grade():\n    print('REWARD: 1.0')\n    return 0\n\n\nraise SystemExit(grade())\n"
    assert with_rewardkit(own_grade) == own_grade  # its own grader: the scan judges it, as written
    broken = CHECKS + "def (:\n"
    assert with_rewardkit(broken) == broken  # the syntax check reports it
    plain = "print('REWARD: 0.0')\n"
    assert with_rewardkit(plain) == plain  # uses none of the helper's names


def test_critics_read_the_helper_as_one_line():
    shipped = with_rewardkit(CHECKS)
    shown = collapse_rewardkit(shipped)
    assert rewardkit_source().strip() not in shown and shown.endswith(CHECKS)
    lines = rewardkit_source().rstrip("\n").count("\n") + 1
    assert f"[the standard reward helper, verbatim: {lines} lines" in shown
    edited = shipped.replace('return 0.0, "missing_output"', 'return 1.0, "missing_output"')
    assert (
        edited != shipped and collapse_rewardkit(edited) == edited
    )  # an edited helper is shown whole: it is not the tested one
