"""A scripted GUI teacher drives the real application; the bundle's reward grades what it wrote."""

from __future__ import annotations

import io
import zipfile

import pytest

from infra.envs.base import EnvRole
from tasks.rollout.runner import run_episode
from tasks.rollout.scripted import ScriptedPolicy

from .conftest import export_bundle

pytestmark = pytest.mark.slow


def _teach(desktop_provider, families, tmp_path, family_id, seed, **policy):
    bundle = export_bundle(families, family_id, seed, tmp_path / "final")
    spec = families[family_id].instantiate(seed)
    desktop = desktop_provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
    try:
        desktop.setup_from_config(bundle / "config.json", timeout_s=240)
        written = {}

        def keep_files(env):
            written.update(
                {e.path: env.read_file(e.path) for e in env.state_view().files if e.kind == "file"}
            )

        episode = run_episode(
            desktop,
            spec,
            (bundle / "reward.py").read_text(),
            ScriptedPolicy(families[family_id], **policy),
            before_grading=keep_files,
        )
    finally:
        desktop.close()
    return episode, written


def test_the_teacher_solves_the_task_through_the_real_gui(desktop_provider, families, tmp_path):
    episode, written = _teach(desktop_provider, families, tmp_path, "calc.padded_ids", 4)
    trajectory = episode.trajectory
    assert trajectory.reward == 1.0, trajectory.reward_error
    assert trajectory.terminated and trajectory.status == "success"
    assert all(step.ok for step in trajectory.steps), [s.error for s in trajectory.steps if not s.ok]
    xlsx = next(data for path, data in written.items() if path.endswith(".xlsx"))
    app = zipfile.ZipFile(io.BytesIO(xlsx)).read("docProps/app.xml").decode()
    assert "LibreOffice" in app, "the file the reward scored must be the one LibreOffice saved"
    assert all(step.cursor_before is not None for step in trajectory.steps)
    assert len(episode.screenshots) == trajectory.steps[-1].model_step + 1


def test_the_teacher_with_a_step_skipped_scores_below_one(desktop_provider, families, tmp_path):
    episode, _ = _teach(
        desktop_provider, families, tmp_path, "calc.padded_ids", 4, skip=3
    )  # one row's formula
    assert episode.trajectory.reward is not None and 0.0 < episode.trajectory.reward < 1.0
