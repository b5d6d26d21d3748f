"""The unit suite's GUI teacher run of each program app (Chromium, Thunderbird, VS Code, …: an app the
desktop launches with its profile and quits before grading), on seed 0 of its cheapest taught family;
the office, web and terminal apps' runs are in test_teachers.py, which says what each run checks."""

from __future__ import annotations

import pytest

from .conftest import assert_teacher_solves, smoke_of_kinds

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("family_id", smoke_of_kinds("program"))
def test_the_program_teacher_reaches_reward_one(rollout_provider, families, tmp_path, family_id):
    assert_teacher_solves(rollout_provider, families, tmp_path, family_id)
