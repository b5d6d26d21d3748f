"""Shared fixtures: the real guest Python, a real local env provider, skills and families."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from infra.envs.local import LocalProvider
from infra.guest_python import ensure_guest_python
from infra.settings import PROJECT_ROOT, get_settings
from skills.kit import load_families

SKILLS = PROJECT_ROOT / "skills"


def pytest_configure(config: pytest.Config) -> None:
    """Tests press Ctrl-C on the commands they start, as a terminal does. Run from a shell without
    job control (`make test &`, nohup) pytest inherits SIGINT ignored, which exec would pass on to
    every command started here; with a handler of ours installed, exec resets it to the default."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def guest_python() -> Path:
    return ensure_guest_python(get_settings().guest_venv_path)


@pytest.fixture(scope="session")
def hub_route(tmp_path_factory: pytest.TempPathFactory):
    """One real hub process (all four mock apps) for the session, reached over its unix socket."""
    from infra.envs.local import WEB_APPS, HubRoute
    from infra.hub.process import HubProcess

    base = tmp_path_factory.mktemp("hub")
    with HubProcess(base / "data", base / "hub.sock") as hub:
        yield HubRoute(hub.uds, WEB_APPS)


@pytest.fixture
def provider(tmp_path: Path, guest_python: Path, hub_route) -> LocalProvider:
    return LocalProvider(tmp_path / "envs", guest_python, hub=hub_route)


@pytest.fixture(scope="session")
def families():
    return load_families(SKILLS)


@pytest.fixture
def isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guest_python: Path):
    """Settings whose var/ and output/ live in tmp_path (the guest venv is shared: it is read-only)."""
    monkeypatch.setenv("CUAGYM_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("CUAGYM_OUTPUT_DIR", str(tmp_path / "output"))
    monkeypatch.setenv("CUAGYM_GUEST_VENV", str(guest_python))
    get_settings.cache_clear()
    yield get_settings()
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def prefect_harness():
    """One temporary Prefect API for the whole session (starting one costs ~10 s)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


def family_mutation_report(provider: LocalProvider, family, spec):
    """The mutation stage's report on a family instance's reward, over an initial and a golden env
    set up from the family's own scripts as co-generation does."""
    from infra.envs.base import EnvRole
    from infra.sandbox import Limits
    from tasks.mutation import run_mutation_tests

    with (
        provider.provision(spec.id, EnvRole.INITIAL, apps=spec.apps) as initial,
        provider.provision(spec.id, EnvRole.GOLDEN, apps=spec.apps) as golden,
    ):
        for env in (initial, golden):
            assert env.run_script(family.script("initial_setup", spec), name="initial_setup.py").ok
        assert golden.run_script(family.script("golden_patch", spec), name="golden_patch.py").ok
        return run_mutation_tests(
            spec, family.script("reward", spec), initial, golden, provider, limits=Limits(timeout_s=60)
        )
