"""A scripted GUI teacher drives the real application; the bundle's reward grades what it wrote."""

from __future__ import annotations

import io
import zipfile

import pytest

from .conftest import teach

pytestmark = pytest.mark.slow


def test_the_teacher_solves_the_task_through_the_real_gui(rollout_provider, families, tmp_path):
    taught = teach(rollout_provider, families, tmp_path, "calc.padded_ids", 4)
    trajectory = taught.episode.trajectory
    assert trajectory.reward == 1.0, trajectory.reward_error
    assert trajectory.terminated and trajectory.status == "success"
    assert all(step.ok for step in trajectory.steps), [s.error for s in trajectory.steps if not s.ok]
    xlsx = next(data for path, data in taught.written.items() if path.endswith(".xlsx"))
    app = zipfile.ZipFile(io.BytesIO(xlsx)).read("docProps/app.xml").decode()
    assert "LibreOffice" in app, "the file the reward scored must be the one LibreOffice saved"
    assert all(step.cursor_before is not None for step in trajectory.steps)
    assert len(taught.episode.screenshots) == trajectory.steps[-1].model_step + 1


def test_the_teacher_with_a_step_skipped_scores_below_one(rollout_provider, families, tmp_path):
    taught = teach(rollout_provider, families, tmp_path, "calc.padded_ids", 4, skip=3)  # one row's formula
    assert taught.reward is not None and 0.0 < taught.reward < 1.0
