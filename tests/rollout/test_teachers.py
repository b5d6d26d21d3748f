"""GUI teachers in the unit suite: one real run per app — and so per teacher kind (an office app's
own window, a web app in the browser, a terminal for files, a program the task launches such as
Chromium) — on seed 0, each app's
cheapest taught family (tasks/quality/teachers.py `smoke_teachers`, derived from the catalogue: a new
app gains its run by having a taught family). The full sweep, every taught family over several seeds,
runs in `cuagym quality` (the nightly `quality` deployment), not here.

Each run is checked the way the dataset would use it: reward exactly 1.0 from the bundle's own
reward.py, a success terminate, no failed call, and `cursor_before` on every step. The program apps'
runs (test_program_teachers.py) and the engine apps' (test_engine_teachers_*.py, split in two) sit in
their own modules so that `--dist loadfile` spreads them over both workers: the suite grows by one run
per app, split over both cores.
"""

from __future__ import annotations

import pytest

from infra.settings import PROJECT_ROOT
from skills.kit import load_families
from tasks.quality.teachers import smoke_teachers, teacher_kind

from .conftest import assert_teacher_solves, smoke_of_kinds

pytestmark = pytest.mark.slow

FAMILIES = load_families(PROJECT_ROOT / "skills")
SMOKE = smoke_teachers(FAMILIES)


def test_every_app_and_teacher_kind_keeps_a_teacher_run():
    taught_apps = {f.apps[0] for f in FAMILIES.values() if f.teacher is not None}
    assert set(SMOKE) == taught_apps
    assert {teacher_kind(app) for app in SMOKE} == {"office", "browser", "terminal", "program", "engine"}
    assert all(FAMILIES[fid].apps[0] == app and FAMILIES[fid].teacher for app, fid in SMOKE.items())


@pytest.mark.parametrize("family_id", smoke_of_kinds("office", "browser", "terminal"))
def test_the_family_teacher_reaches_reward_one(rollout_provider, families, tmp_path, family_id):
    assert_teacher_solves(rollout_provider, families, tmp_path, family_id)
