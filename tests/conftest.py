"""Shared fixtures: the real guest Python, a real local env provider, skills and families."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from infra.envs.local import LocalProvider  # noqa: E402
from infra.guest import ensure_guest_python  # noqa: E402
from infra.settings import PROJECT_ROOT, get_settings  # noqa: E402
from tasks.families import load_families  # noqa: E402

SKILLS = PROJECT_ROOT / "skills"


@pytest.fixture(scope="session")
def guest_python() -> Path:
    return ensure_guest_python(get_settings().guest_venv_path)


@pytest.fixture
def provider(tmp_path: Path, guest_python: Path) -> LocalProvider:
    return LocalProvider(tmp_path / "envs", guest_python)


@pytest.fixture(scope="session")
def families():
    return load_families(SKILLS)
