"""Fixtures for desktop tests: the desktop Python, a provider, exported bundles, OSWorld's controllers.

Desktop tests start real sandboxes (Xvfb, openbox, LibreOffice); every env is closed by its fixture,
which ends the whole sandbox (its pid namespace), so no Xvfb or soffice outlives a test.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from infra.desktop_venv import ensure_desktop_python
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.settings import PROJECT_ROOT, get_settings
from tasks.quality.teachers import bundle_for

SCREENSHOTS = PROJECT_ROOT / "var" / "screenshots"
# desktop-env's own dependency set pins torch, easyocr, old numpy and more (gigabytes, and conflicts
# with ours), so the package is installed --no-deps here; what its controller modules import at
# module level is in pyproject's `test` extra.
OSWORLD_PACKAGE = "desktop-env==1.0.2"
OSWORLD_DIR = PROJECT_ROOT / "var" / "osworld-controllers"


@pytest.fixture(scope="session")
def desktop_python() -> Path:
    return ensure_desktop_python(get_settings().desktop_venv_path)


@pytest.fixture(scope="session")
def docker_engine():
    """The Docker engine (a local dockerd is started when none answers)."""
    from infra.envs.docker import docker_client

    return docker_client()


@pytest.fixture(scope="session")
def desktop_image(docker_engine, desktop_python: Path) -> str:
    """The `docker` provider's image, built once (debootstrap on a fresh machine) under var/images."""
    from infra.envs.docker import ensure_image

    return ensure_image(docker_engine, desktop_python=desktop_python)


@pytest.fixture
def desktop_provider(tmp_path: Path, desktop_python: Path) -> DesktopProvider:
    return DesktopProvider(tmp_path / "desktops", desktop_python)


@pytest.fixture
def desktop(desktop_provider: DesktopProvider):
    env = desktop_provider.provision("desktop-test", EnvRole.DEBUG)
    yield env
    env.close()


@pytest.fixture(scope="session")
def families():
    from skills.kit import load_families

    return load_families(PROJECT_ROOT / "skills")


def export_bundle(families, family_id: str, seed: int, out: Path) -> Path:
    """A real exported bundle (config.json + scripts) of one family instance."""
    return bundle_for(families[family_id], seed, out, review="# test bundle\n")


@pytest.fixture(scope="session")
def osworld():
    """OSWorld's own PythonController and SetupController, unmodified (desktop-env from PyPI).

    `desktop_env.controllers.setup` imports `compare_urls` from `desktop_env.evaluators.metrics.utils`;
    the `metrics` package's __init__ imports every metric module (easyocr → torch, librosa, cv2…). So
    the package object is registered without running that __init__, and `metrics.utils` — the real
    file — loads on its own. The controllers themselves run exactly as shipped.
    """
    if not (OSWORLD_DIR / "desktop_env" / "controllers" / "setup.py").exists():
        shutil.rmtree(OSWORLD_DIR, ignore_errors=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--target",
                str(OSWORLD_DIR),
                OSWORLD_PACKAGE,
            ],
            check=True,
        )
    if str(OSWORLD_DIR) not in sys.path:
        sys.path.append(str(OSWORLD_DIR))
    import desktop_env.evaluators as evaluators

    metrics = types.ModuleType("desktop_env.evaluators.metrics")
    metrics.__path__ = [str(Path(evaluators.__file__).parent / "metrics")]
    sys.modules.setdefault("desktop_env.evaluators.metrics", metrics)
    from desktop_env.controllers.python import PythonController
    from desktop_env.controllers.setup import SetupController

    return types.SimpleNamespace(PythonController=PythonController, SetupController=SetupController)


def save_screenshot(env: DesktopEnv, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"desktop-{name}.png"
    path.write_bytes(env.screenshot())
    return path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.fixture(scope="session")
def osworld_evaluator(osworld):
    """OSWorld's own evaluator functions, unmodified: the getters `vm_command_line` and `rule`, and
    the metrics `exact_match` and `check_include_exclude` (what DesktopEnv.evaluate resolves from a
    config's evaluator). The `getters` package's __init__ imports every getter module (playwright,
    pyautogui…), so, as for `metrics` in `osworld`, only the real modules needed are loaded."""
    import desktop_env.evaluators as evaluators

    getters = types.ModuleType("desktop_env.evaluators.getters")
    getters.__path__ = [str(Path(evaluators.__file__).parent / "getters")]
    sys.modules.setdefault("desktop_env.evaluators.getters", getters)
    from desktop_env.evaluators.getters.general import get_vm_command_line
    from desktop_env.evaluators.getters.misc import get_rule
    from desktop_env.evaluators.metrics.general import check_include_exclude, exact_match

    return types.SimpleNamespace(
        get_vm_command_line=get_vm_command_line,
        get_rule=get_rule,
        exact_match=exact_match,
        check_include_exclude=check_include_exclude,
    )
