"""The quality flow for real: `cuagym quality` on the Prefect harness, the real sandbox and hub, and a
warehouse in a tmp var dir — its rows, the quality_by_family view, `cuagym report quality` and the
exit code; one GUI teacher run on a real desktop; and a deliberately weak reward caught (a surviving
mutant, a near miss it cannot tell apart) with a non-zero exit naming the family."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.settings import PROJECT_ROOT, get_settings
from tests.test_family_kit import TINY_YAML, skills_with
from warehouse.query import run_query

pytestmark = pytest.mark.slow

CHEAP = ["files.batch_rename", "vscode.keybindings"]  # no LibreOffice, no hub: seconds per seed


def _cuagym(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": "200"})


def _view(settings) -> dict[str, dict]:
    result = run_query(settings.warehouse_path, "SELECT * FROM quality_by_family")
    return {row[0]: dict(zip(result.columns, row, strict=True)) for row in result.rows}


def test_two_families_over_two_seeds_fill_the_table_the_view_and_the_report(
    prefect_harness, isolated_settings
):
    args = ["quality", "--seeds", "2", "--teacher-seeds", "0", "--workers", "2"]
    run = _cuagym(*args, *[a for f in CHEAP for a in ("--family", f)])
    assert run.exit_code == 0, run.output
    rows = run_query(
        isolated_settings.warehouse_path,
        "SELECT family, seed, mutants, killed, reward_initial, reward_golden, teacher_ran FROM quality ORDER BY 1, 2",
    ).rows
    assert [(r[0], r[1]) for r in rows] == [(f, s) for f in CHEAP for s in (0, 1)]
    assert all(r[2] > 0 and r[3] == r[2] and r[4] == 0.0 and r[5] == 1.0 and not r[6] for r in rows), rows
    view = _view(isolated_settings)
    assert set(view) == set(CHEAP)
    assert all(v["seeds"] == 2 and v["kill_rate"] == 1.0 and v["teacher_runs"] == 0 for v in view.values())
    assert all(v["mistakes_told"] == v["mistakes"] > 0 for v in view.values())

    report = _cuagym("report", "quality", "--format", "json")
    assert report.exit_code == 0, report.output
    assert {r["family"]: r["kill_rate"] for r in json.loads(report.output)} == dict.fromkeys(CHEAP, 1.0)
    table = _cuagym("report", "quality")
    assert all(f in table.output for f in CHEAP), table.output
    # per app: one family each, every mutant killed, no teacher run on these
    apps = run_query(isolated_settings.warehouse_path, "SELECT app, families, seeds, kill_rate, teacher_runs "
                                                       "FROM quality_by_app ORDER BY app").rows  # fmt: skip
    assert apps == [("files", 1, 2, 1.0, 0), ("vscode", 1, 2, 1.0, 0)]
    assert "quality by app" in table.output

    # A second run is a new run: the view follows each family's latest one.
    again = _cuagym("quality", "--seeds", "1", "--teacher-seeds", "0", "--family", CHEAP[0])
    assert again.exit_code == 0, again.output
    view = _view(isolated_settings)
    assert view[CHEAP[0]]["seeds"] == 1 and view[CHEAP[1]]["seeds"] == 2
    assert run_query(isolated_settings.warehouse_path, "SELECT count(*) FROM quality").rows[0][0] == 5


def test_one_gui_teacher_run_is_recorded(prefect_harness, isolated_settings, monkeypatch):
    desktop_venv = PROJECT_ROOT / "var" / "desktop-venv"
    assert desktop_venv.is_dir(), f"the desktop venv {desktop_venv} is missing: run `make setup`"
    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_venv))
    get_settings.cache_clear()
    run = _cuagym("quality", "--seeds", "1", "--teacher-seeds", "1", "--family", "files.batch_rename")
    assert run.exit_code == 0, run.output
    row = run_query(
        get_settings().warehouse_path,
        "SELECT teacher_ran, teacher_passed, teacher_error, teacher_s FROM quality",
    ).rows
    assert row == [(True, True, None, row[0][3])] and row[0][3] > 0, row
    assert _view(get_settings())["files.batch_rename"]["teacher_pass_rate"] == 1.0


# A two-file task whose reward looks at one file only: deleting the other still scores 1.0.
WEAK_PY = '''
"""Files: write a note and its copy; the reward forgets the copy."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    topic = rng.choice(pools["topics"])
    return {"topic": topic, "name": f"{topic}-{rng.randint(100, 999)}.txt",
            "first": f"{topic.title()} review", "second": f"owner: {rng.choice(['ana', 'bo', 'chen'])}"}


def initial_setup(P):
    (HOME / "Desktop").mkdir(parents=True, exist_ok=True)


def solve(P, *, mistake=None):
    text = P["first"] + "\\n" + P["second"] + "\\n"
    (HOME / "Desktop" / P["name"]).write_text(text)
    if mistake != "one_line":
        (HOME / "Desktop" / ("copy-" + P["name"])).write_text(text)


def note_lines(P):
    return (HOME / "Desktop" / P["name"]).read_text().splitlines()


def reward(P):
    @precondition("the Desktop folder is there")
    def desktop():
        return (HOME / "Desktop").is_dir()

    @component("the first line", 0.5)
    def first():
        return note_lines(P)[:1] == [P["first"]]

    @component("the second line", 0.5)
    def second():
        return note_lines(P)[1:2] == [P["second"]]
'''


def test_a_weak_reward_shows_a_kill_rate_below_one_and_fails_the_run(
    prefect_harness, isolated_settings, monkeypatch, tmp_path
):
    skills = skills_with(
        tmp_path, {"files/families/tiny_note.yaml": TINY_YAML, "files/families/tiny_note.py": WEAK_PY}
    )
    monkeypatch.setenv("CUAGYM_SKILLS_DIR", str(skills))
    get_settings.cache_clear()
    run = _cuagym("quality", "--seeds", "2", "--teacher-seeds", "0")
    assert run.exit_code == 1, run.output
    said = " ".join(run.output.split())  # rich wraps at the terminal's width
    assert "files.tiny_note: seed 0: 1 of 1 near misses not told apart" in said, said
    assert "surviving mutant" in said and "copy-" in said, said
    view = _view(get_settings())["files.tiny_note"]
    assert view["kill_rate"] < 1.0 and view["survivors"] >= 2, view  # one per seed at least
    assert view["mistakes_told"] == 0 < view["mistakes"], view  # the missing copy scores 1.0
    survivors = run_query(get_settings().warehouse_path, "SELECT survivors FROM quality").rows
    assert all(any("copy-" in s for s in json.loads(r[0])) for r in survivors), survivors
