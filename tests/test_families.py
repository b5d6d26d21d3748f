"""Every procedural family, through the real sandbox: initial -> 0.0, golden -> 1.0, a near miss is
partial credit, scripts are self-contained, and instances really vary.

The sandbox checks run on seed 0 here; further seeds (and the mutation stage on each) run in
`cuagym quality`, so the suite grows with the catalogue, not with families x seeds."""

from __future__ import annotations

import ast
import sys

import pytest

from infra.envs.base import EnvRole
from skills.kit import load_families
from tasks.grading import parse_grade
from tasks.models import Difficulty, Wording
from tasks.taxonomy import load_taxonomies

from .conftest import SKILLS

FAMILIES = load_families(SKILLS)
ALLOWED_IMPORTS = {"openpyxl", "docx", "pptx", "pypdf", "requests", "PIL"}  # infra/guest-requirements.txt
SEEDS = (0,)  # seeds 1.. run in the quality flow (flows/quality.py)


def _grade(provider, family, spec, kinds):
    with provider.provision(spec.id, EnvRole.DEBUG, apps=spec.apps) as env:
        for kind in kinds:
            run = env.run_script(family.script(kind, spec), name=f"{kind}.py")
            assert run.ok, f"{family.id} seed {spec.seed} {kind} failed:\n{run.stderr[-2000:]}"
        grade = parse_grade(env.run_script(family.script("reward", spec), name="reward.py"))
    assert grade.score is not None, f"{family.id} seed {spec.seed}: {grade.error}"
    return grade


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
@pytest.mark.parametrize("seed", SEEDS)
def test_family_endpoints(provider, family_id, seed):
    family = FAMILIES[family_id]
    spec = family.instantiate(seed)
    initial = _grade(provider, family, spec, ["initial_setup"])
    assert initial.score == 0.0, f"initial state earns credit: {initial.components}"
    golden = _grade(provider, family, spec, ["initial_setup", "golden_patch"])
    assert golden.score == 1.0, f"golden state misses credit: {golden.components}"
    assert len(golden.components) >= 2


@pytest.mark.parametrize(
    ("family_id", "mistake"), [(fid, m) for fid in sorted(FAMILIES) for m in FAMILIES[fid].mistakes]
)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_mistake_is_a_near_miss(provider, family_id, mistake, seed):
    family = FAMILIES[family_id]
    spec = family.instantiate(seed)
    with provider.provision(spec.id, EnvRole.DEBUG, apps=spec.apps) as env:
        for name, source in (
            ("initial_setup.py", family.script("initial_setup", spec)),
            ("golden_patch.py", family.script("near_miss", spec, mistake=mistake)),
        ):
            run = env.run_script(source, name=name)
            assert run.ok, f"{family_id} seed {seed} {mistake}: {name} failed:\n{run.stderr[-2000:]}"
        near = parse_grade(env.run_script(family.script("reward", spec), name="reward.py"))
    assert near.score is not None, f"{family_id} {mistake}: {near.error}"
    assert 0.0 < near.score < 1.0, f"mistake {mistake!r} not told apart: {near.score} {near.components}"


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_scripts_are_self_contained(family_id):
    family = FAMILIES[family_id]
    spec = family.instantiate(7)
    scripts = [family.script(kind, spec) for kind in ("initial_setup", "golden_patch", "reward")]
    scripts += [family.script("near_miss", spec, mistake=m) for m in family.mistakes]
    for script in scripts:
        tree = ast.parse(script)
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ALLOWED_IMPORTS, f"a script imports {name}"


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_instances_vary(family_id):
    family = FAMILIES[family_id]
    specs = [family.instantiate(seed) for seed in range(6)]
    assert len({s.id for s in specs}) == 6
    assert len({repr(s.params) for s in specs}) >= 5, "draws repeat: the family needs more variety"
    assert {s.template.split(":")[1] for s in specs} <= {w.value for w in Wording}


def test_family_leaves_exist_in_taxonomies():
    taxonomies = load_taxonomies(SKILLS)
    for family in FAMILIES.values():
        for app in family.apps:
            assert app in taxonomies, f"{family.id}: no skills/{app}/taxonomy.yaml"
        for leaf in family.leaves:
            app = leaf.split("/")[0]
            assert leaf in taxonomies[app].leaves, f"{family.id}: unknown leaf {leaf}"


def test_catalogue_breadth():
    desktop_apps = {"calc", "writer", "impress", "vscode", "files"}
    per_app = {app: [f for f in FAMILIES.values() if f.apps == (app,)] for app in desktop_apps}
    thin = {app: len(fams) for app, fams in per_app.items() if len(fams) < 4}
    assert not thin, f"apps with fewer than 4 single-app families: {thin}"
    cross = [f for f in FAMILIES.values() if len(f.apps) > 1]
    assert len(cross) >= 2
    assert {f.difficulty for f in FAMILIES.values()} == set(Difficulty)
    web_apps = {"chat", "tracker", "store", "mail"}
    thin_web = {app: n for app in web_apps if (n := sum(f.apps == (app,) for f in FAMILIES.values())) < 3}
    assert not thin_web, f"web apps with fewer than 3 single-app families: {thin_web}"
    web_desktop = [f for f in FAMILIES.values() if set(f.apps) & web_apps and set(f.apps) & desktop_apps]
    assert web_desktop, "no family combines a web app with a desktop app"
