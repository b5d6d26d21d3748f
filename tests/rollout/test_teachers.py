"""GUI teachers in the unit suite: one real run per app — and so per teacher kind (an office app's
own window, a web app in the browser, a terminal for files, a program the task launches such as
Chromium) — on seed 0, each app's
cheapest taught family (tasks/quality/teachers.py `smoke_teachers`, derived from the catalogue: a new
app gains its run by having a taught family). The full sweep, every taught family over several seeds,
runs in `cuagym quality` (the nightly `quality` deployment), not here.

Each run is checked the way the dataset would use it: reward exactly 1.0 from the bundle's own
reward.py, a success terminate, no failed call, and `cursor_before` on every step.
"""

from __future__ import annotations

import pytest

from infra.settings import PROJECT_ROOT
from skills.kit import load_families
from tasks.quality.teachers import smoke_teachers, teacher_kind

from .conftest import teach

pytestmark = pytest.mark.slow

FAMILIES = load_families(PROJECT_ROOT / "skills")
SMOKE = smoke_teachers(FAMILIES)


def test_every_app_and_teacher_kind_keeps_a_teacher_run():
    taught_apps = {f.apps[0] for f in FAMILIES.values() if f.teacher is not None}
    assert set(SMOKE) == taught_apps
    assert {teacher_kind(app) for app in SMOKE} == {"office", "browser", "terminal", "program"}
    assert all(FAMILIES[fid].apps[0] == app and FAMILIES[fid].teacher for app, fid in SMOKE.items())


@pytest.mark.parametrize("family_id", sorted(SMOKE.values()))
def test_the_family_teacher_reaches_reward_one(rollout_provider, families, tmp_path, family_id):
    taught = teach(rollout_provider, families, tmp_path, family_id, 0)
    trajectory = taught.episode.trajectory
    failed = [(s.step, s.action, s.error) for s in trajectory.steps if not s.ok]
    assert not failed, failed
    assert trajectory.reward == 1.0, (trajectory.reward, trajectory.reward_error)
    assert trajectory.terminated and trajectory.status == "success"
    assert all(s.cursor_before is not None for s in trajectory.steps)
