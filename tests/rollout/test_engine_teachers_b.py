"""The unit suite's GUI teacher run of each app the app engine draws, on seed 0 of its cheapest taught
family (the second of two halves: `--dist loadfile` gives each module to one worker, so two
modules keep both cores busy); test_teachers.py says what each run checks."""

from __future__ import annotations

import pytest

from .conftest import assert_teacher_solves, smoke_of_kinds

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("family_id", smoke_of_kinds("engine")[1::2])
def test_the_engine_app_teacher_reaches_reward_one(rollout_provider, families, tmp_path, family_id):
    assert_teacher_solves(rollout_provider, families, tmp_path, family_id)
