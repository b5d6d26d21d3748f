"""The family kit (skills/kit): a family written by following CONTRIBUTING.md is discovered, sampled
and verified; definitions and guest code that break the rules fail at load or render time, naming
the family and what is wrong."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from infra.errors import ConfigError
from infra.settings import PROJECT_ROOT, get_settings
from skills.kit.catalogue import load_families

# "Add a family", steps 1-3: a Files task that needs two independently scored changes.
TINY_YAML = """
id: files.tiny_note
title: Write a two-line note on the Desktop
apps: [files]
difficulty: easy
leaves: [files/create/new_file]
domains: [office_admin]
mistakes:
  one_line: the note holds the first line only
pools:
  topics: [budget, roadmap, hiring, launch]
words:
  file: "~/Desktop/{{ name }}"
templates:
  imperative: Create {{ file }} whose first line is "{{ first }}" and whose second line is "{{ second }}".
  request: Could you write {{ file }} with "{{ first }}" on line one and "{{ second }}" on line two?
  contextual: As {{ persona }}, I need {{ file }} to say "{{ first }}" then, on the next line, "{{ second }}".
  goal: "Goal: {{ file }} exists with two lines: \\"{{ first }}\\" and \\"{{ second }}\\"."
  problem_fix: My {{ topic }} note is missing. Create {{ file }} with the lines "{{ first }}" and "{{ second }}".
context: "{{ file }} does not exist. Expected: a text file with exactly the lines {{ [first, second] | repr }}."
"""
TINY_PY = '''
"""Files: write a two-line note (data and wording: tiny_note.yaml)."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    topic = rng.choice(pools["topics"])
    return {"topic": topic, "name": f"{topic}-{rng.randint(100, 999)}.txt",
            "first": f"{topic.title()} review", "second": f"owner: {rng.choice(['ana', 'bo', 'chen'])}"}


def initial_setup(P):
    (HOME / "Desktop").mkdir(parents=True, exist_ok=True)


def solve(P, *, mistake=None):
    lines = [P["first"]] if mistake == "one_line" else [P["first"], P["second"]]
    (HOME / "Desktop" / P["name"]).write_text("\\n".join(lines) + "\\n")


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


def skills_with(tmp_path: Path, files: dict[str, str]) -> Path:
    """A skills dir holding the files app (SKILL.md, taxonomy) plus `files` relative to it."""
    skills = tmp_path / "skills"
    (skills / "files" / "families").mkdir(parents=True)
    for name in ("SKILL.md", "taxonomy.yaml"):
        shutil.copy(PROJECT_ROOT / "skills" / "files" / name, skills / "files" / name)
    for name in ("quotas.yaml", "scenario_matrix.yaml"):
        shutil.copy(PROJECT_ROOT / "skills" / name, skills / name)
    for rel, text in files.items():
        (skills / rel).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return skills


def tiny(tmp_path: Path, yaml_text: str = TINY_YAML, py_text: str = TINY_PY) -> Path:
    return skills_with(
        tmp_path, {"files/families/tiny_note.yaml": yaml_text, "files/families/tiny_note.py": py_text}
    )


def test_a_family_written_by_the_recipe_is_discovered_sampled_and_verified(
    tmp_path, monkeypatch, prefect_harness, isolated_settings
):
    from flows.synthesis import synthesis_flow
    from tasks.models import SynthParams, TupleStatus
    from tasks.verify import verify_bundles

    skills = tiny(tmp_path)
    assert list(load_families(skills)) == ["files.tiny_note"]
    monkeypatch.setenv("CUAGYM_SKILLS_DIR", str(skills))
    get_settings.cache_clear()
    summary = synthesis_flow(SynthParams(count=2, seed=4, apps=["files"], workers=1, teacher_k=0))
    assert [o.status for o in summary.outcomes] == [TupleStatus.EXPORTED] * 2, summary.outcomes
    assert {o.task_id.split("-")[0] for o in summary.outcomes} == {"files.tiny_note"}
    assert not summary.checks_failed
    checks = list(verify_bundles([Path(o.bundle) for o in summary.outcomes], get_settings()))
    assert [c.ok for c in checks] == [True, True], [c.problems for c in checks]


def test_a_guest_function_reading_a_module_constant_is_refused_with_its_name(tmp_path):
    py = TINY_PY.replace("def note_lines(P):", 'NOTES = "Desktop"\n\n\ndef note_lines(P):').replace(
        'HOME / "Desktop" / P["name"]).read_text()', 'HOME / NOTES / P["name"]).read_text()'
    )
    family = load_families(tiny(tmp_path, py_text=py))["files.tiny_note"]
    spec = family.instantiate(0)
    family.script("golden_patch", spec)  # solve() does not reach the constant
    with pytest.raises(ConfigError, match=r"files\.tiny_note: note_lines\(\) in reward\.py reads 'NOTES'"):
        family.script("reward", spec)


def test_a_guest_function_calling_host_code_is_refused(tmp_path):
    py = TINY_PY.replace(
        '"""\n\nfrom skills', '"""\n\nfrom skills.chat.world import channel_id\nfrom skills', 1
    ).replace('lines = [P["first"]]', 'lines = [channel_id(P["first"])]')
    family = load_families(tiny(tmp_path, py_text=py))["files.tiny_note"]
    with pytest.raises(ConfigError, match=r"solve\(\) in golden_patch\.py reads 'channel_id'"):
        family.script("golden_patch", family.instantiate(1))


def test_the_near_miss_is_the_named_mistake(tmp_path):
    family = load_families(tiny(tmp_path))["files.tiny_note"]
    spec = family.instantiate(2)
    assert family.script("near_miss", spec).rstrip().endswith("solve(P, mistake='one_line')")
    with pytest.raises(ConfigError, match="names no mistake 'typo'"):
        family.script("near_miss", spec, mistake="typo")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda y: y.replace("  goal:", "  # goal:"),
            r"templates: Value error, every wording style needs a template; missing: \['goal'\]",
        ),
        (
            lambda y: y.replace("leaves: [files/", "leaves: [calc/"),
            "the first leaf 'calc/create/new_file' is not in the primary app",
        ),
        (lambda y: y.replace("id: files.tiny_note", "id: files.other_name"), "does not match the file name"),
        (
            lambda y: y.replace("difficulty: easy", "difficulty: trivial"),
            r"difficulty: Input should be 'easy', 'medium' or 'hard'",
        ),
        (lambda y: y + "colour: blue\n", "colour: Extra inputs are not permitted"),
        (
            lambda y: y.replace("{{ file }} whose", "{{ file } whose"),
            r"templates\.imperative: unexpected '}'",
        ),
    ],
    ids=[
        "missing-wording",
        "leaf-of-another-app",
        "id-vs-file",
        "bad-enum",
        "unknown-field",
        "template-syntax",
    ],
)
def test_a_bad_definition_fails_the_load_naming_file_and_field(tmp_path, edit, message):
    with pytest.raises(ConfigError, match=message) as err:
        load_families(tiny(tmp_path, yaml_text=edit(TINY_YAML)))
    assert "tiny_note.yaml" in str(err.value)


def test_a_template_naming_an_unknown_param_fails_when_rendered(tmp_path):
    family = load_families(
        tiny(tmp_path, yaml_text=TINY_YAML.replace("{{ topic }} note", "{{ subject }} note"))
    )
    with pytest.raises(ConfigError, match=r"templates\.problem_fix: 'subject' is undefined"):
        for seed in range(20):  # until the problem_fix wording is drawn
            family["files.tiny_note"].instantiate(seed)


def test_half_a_family_is_an_error(tmp_path):
    skills = skills_with(tmp_path, {"files/families/tiny_note.yaml": TINY_YAML})
    with pytest.raises(ConfigError, match=r"tiny_note\.yaml has no tiny_note\.py beside it"):
        load_families(skills)


def test_a_module_missing_solve_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"defines no function solve\(\)"):
        load_families(
            tiny(tmp_path, py_text=TINY_PY.replace("def solve(P, *, mistake=None):", "def fix(P):"))
        )
