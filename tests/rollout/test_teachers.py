"""Every family's GUI teacher solves its task through the real application (seed 0 here; the sweep
over seeds 0–2 is bench/teachers.py; CUAGYM_TEACHER_SEEDS=0,1,2 runs them here too). A family gains
this test by defining `demonstrate`.

Each run is checked the way the dataset would use it: reward exactly 1.0 from the bundle's own
reward.py, a success terminate, no failed call, and `cursor_before` on every step.
"""

from __future__ import annotations

import os

import pytest

from infra.settings import PROJECT_ROOT
from skills.kit import load_families

from .conftest import teach

pytestmark = pytest.mark.slow

TAUGHT = sorted(f.id for f in load_families(PROJECT_ROOT / "skills").values() if f.teacher is not None)
SEEDS = [int(s) for s in os.environ.get("CUAGYM_TEACHER_SEEDS", "0").split(",")]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("family_id", TAUGHT)
def test_the_family_teacher_reaches_reward_one(rollout_provider, families, tmp_path, family_id, seed):
    taught = teach(rollout_provider, families, tmp_path, family_id, seed)
    trajectory = taught.episode.trajectory
    failed = [(s.step, s.action, s.error) for s in trajectory.steps if not s.ok]
    assert not failed, failed
    assert trajectory.reward == 1.0, (trajectory.reward, trajectory.reward_error)
    assert trajectory.terminated and trajectory.status == "success"
    assert all(s.cursor_before is not None for s in trajectory.steps)
