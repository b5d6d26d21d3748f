"""The text-lines mutation handler (tasks/mutation/guest/mutator/textlines.py): dotfiles and text or
CSV reports get one unit per meaningful line, whose revert and apply edit a copy by content, and the
corruptions a careless edit leaves (commented out, reversed, one line short). Host-side: the handler
is plain Python over two folders."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tasks" / "mutation" / "guest"))

from mutator import textlines  # noqa: E402
from mutator.__main__ import _handler  # noqa: E402

GIT_BEFORE = "[user]\n\tname = jdoe\n\temail = jdoe@old.example\n[color]\n\tui = auto\n"
GIT_AFTER = (
    "[user]\n\tname = Jane Doe\n\temail = jdoe@old.example\n[color]\n\tui = auto\n[alias]\n\tst = status\n"
)


def homes(tmp_path: Path, rel: str, before: str | None, after: str) -> tuple[Path, Path]:
    initial, golden = tmp_path / "initial", tmp_path / "golden"
    for home, text in ((initial, before), (golden, after)):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        if text is not None:
            (home / rel).write_text(text, encoding="utf-8")
    return initial, golden


def run(op, base: Path, tmp_path: Path, rel: str) -> str:
    out = tmp_path / "mutant"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(base, out)
    op(out)
    return (out / rel).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "rel", [".bashrc", ".gitconfig", ".ssh/config", "reports/web-top-errors.txt", "data/out.csv"]
)
def test_the_handler_is_chosen_for_dotfiles_and_reports_at_the_home(rel):
    assert _handler(rel) is textlines


def test_a_plain_note_stays_one_file_level_unit():
    assert _handler("notes/todo.txt") is None


def test_a_rewritten_gitconfig_has_a_unit_per_changed_or_added_line(tmp_path):
    initial, golden = homes(tmp_path, ".gitconfig", GIT_BEFORE, GIT_AFTER)
    units = textlines.units(".gitconfig", initial / ".gitconfig", golden / ".gitconfig")
    assert [u.kind for u in units] == ["text.line_changed", "text.line_added", "text.line_added"]
    changed, header, alias = units
    assert run(changed.revert, golden, tmp_path, ".gitconfig") == GIT_AFTER.replace("Jane Doe", "jdoe")
    assert run(alias.revert, golden, tmp_path, ".gitconfig") == GIT_AFTER.replace("\tst = status\n", "")
    assert run(changed.apply, initial, tmp_path, ".gitconfig") == GIT_BEFORE.replace(
        "jdoe\n", "Jane Doe\n", 1
    )
    assert "[alias]" in run(header.apply, initial, tmp_path, ".gitconfig")


def test_blank_and_comment_lines_of_a_config_are_not_units(tmp_path):
    before = "alias ll='ls -alF'\n"
    after = before + "\n# mine\nexport EDITOR=nano\n"
    initial, golden = homes(tmp_path, ".bashrc", before, after)
    units = textlines.units(".bashrc", initial / ".bashrc", golden / ".bashrc")
    assert [u.what for u in units] == [".bashrc: added export EDITOR=nano"]


def test_a_new_report_gets_corruptions_and_a_shell_file_no_reordering(tmp_path):
    initial, golden = homes(tmp_path, "reports/web-top-errors.txt", None, "57 E1042\n31 E2210\n12 E3001\n")
    found = textlines.corruptions("reports/web-top-errors.txt", None, golden / "reports/web-top-errors.txt")
    texts = {c.kind: run(c.make, golden, tmp_path, "reports/web-top-errors.txt") for c in found}
    assert texts == {
        "corrupt.commented_out": "# 57 E1042\n# 31 E2210\n# 12 E3001\n",
        "corrupt.line_order": "12 E3001\n31 E2210\n57 E1042\n",
        "corrupt.line_missing": "57 E1042\n31 E2210\n",
    }
    initial, golden = homes(tmp_path / "b", ".bashrc", "a=1\n", "a=1\nalias x=y\nexport B=2\n")
    kinds = [c.kind for c in textlines.corruptions(".bashrc", initial / ".bashrc", golden / ".bashrc")]
    assert kinds == ["corrupt.commented_out", "corrupt.line_missing"]
