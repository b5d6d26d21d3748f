"""Rollout tests run real desktops; they reuse the desktop fixtures.

`teach(...)` is one scripted-teacher episode of a family instance, start to finish the way the
rollout flow runs one: a real exported bundle, a fresh desktop (with a hub session for web apps) set
up from its config.json, the teacher driving the GUI, the bundle's reward.py grading the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.settings import PROJECT_ROOT
from tasks.rollout.runner import Episode, run_episode
from tasks.rollout.scripted import ScriptedPolicy
from tests.desktop import conftest as desktop_fixtures
from tests.desktop.conftest import export_bundle, save_screenshot

# The desktop fixtures, found by name.
desktop = desktop_fixtures.desktop
desktop_provider = desktop_fixtures.desktop_provider
desktop_python = desktop_fixtures.desktop_python
desktop_image = desktop_fixtures.desktop_image
docker_engine = desktop_fixtures.docker_engine
families = desktop_fixtures.families


@pytest.fixture
def rollout_provider(tmp_path: Path, desktop_python: Path, hub_route) -> DesktopProvider:
    """Desktops that can show web apps too (the session's hub)."""
    return DesktopProvider(tmp_path / "desktops", desktop_python, hub=hub_route)


@dataclass
class Taught:
    episode: Episode
    written: dict[str, bytes] = field(default_factory=dict)  # home files as the episode left them
    web_state: dict | None = None  # each web app's /go answer as the episode left it

    @property
    def reward(self) -> float | None:
        return self.episode.trajectory.reward


def teach(provider: DesktopProvider, families, out: Path, family_id: str, seed: int, **policy) -> Taught:
    """One teacher episode on `family_id` at `seed`; the last screenshot goes to
    var/screenshots/desktop-teacher-<family>-<seed>.png for people to look at."""
    bundle = export_bundle(families, family_id, seed, out / "final")
    spec = families[family_id].instantiate(seed)
    desktop = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
    taught = Taught(episode=None)  # type: ignore[arg-type]

    def keep_state(env) -> None:
        view = env.state_view()
        taught.written = {e.path: env.read_file(e.path) for e in view.files if e.kind == "file"}
        taught.web_state = view.app_state
        save_screenshot(env, f"teacher-{family_id}-{seed}")

    try:
        desktop.setup_from_config(bundle / "config.json", timeout_s=240)
        taught.episode = run_episode(
            desktop,
            spec,
            (bundle / "reward.py").read_text(),
            ScriptedPolicy(families[family_id], **policy),
            before_grading=keep_state,
        )
    finally:
        desktop.close()
    return taught


def smoke_of_kinds(*kinds: str) -> list[str]:
    """The smoke families (tasks/quality/teachers.smoke_teachers) of the apps whose teacher kind is one
    of `kinds`."""
    from skills.kit import load_families
    from tasks.quality.teachers import smoke_teachers, teacher_kind

    smoke = smoke_teachers(load_families(PROJECT_ROOT / "skills"))
    return sorted(fid for app, fid in smoke.items() if teacher_kind(app) in kinds)


def assert_teacher_solves(provider: DesktopProvider, families, out: Path, family_id: str) -> None:
    """Seed 0's teacher run as the dataset would use it: reward exactly 1.0 from the bundle's own
    reward.py, a success terminate, no failed call, `cursor_before` on every step."""
    trajectory = teach(provider, families, out, family_id, 0).episode.trajectory
    failed = [(s.step, s.action, s.error) for s in trajectory.steps if not s.ok]
    assert not failed, failed
    assert trajectory.reward == 1.0, (trajectory.reward, trajectory.reward_error)
    assert trajectory.terminated and trajectory.status == "success"
    assert all(s.cursor_before is not None for s in trajectory.steps)
