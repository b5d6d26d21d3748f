"""Desktops set up ahead (tasks/rollout/standby.py, `cuagym rollout --standby`): the desktop of a
tuple's next episode is set up from its bundle while the current one plays, no more desktops are set
up than episodes need, a standby that fails falls back to a desktop set up at once, and none is left
running."""

from __future__ import annotations

import json
import threading

import pytest

from flows.rollout import rollout_flow
from infra.envs.desktop import DesktopProvider
from infra.envs.desktop.setup import DesktopSetupError
from tasks.models import RolloutParams
from tasks.rollout.standby import Standby

from .conftest import export_bundle

pytestmark = pytest.mark.slow


@pytest.fixture
def provisions(monkeypatch):
    """Every desktop the provider starts, with the thread that started it."""
    started = []
    provision = DesktopProvider.provision

    def recorded(self, *args, **kwargs):
        env = provision(self, *args, **kwargs)
        started.append((threading.current_thread().name, env))
        return env

    monkeypatch.setattr(DesktopProvider, "provision", recorded)
    return started


def test_the_next_episode_is_set_up_while_one_plays(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch, provisions
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    bundle = export_bundle(families, "files.permissions", 0, tmp_path / "final")
    params = RolloutParams(bundles=[str(bundle)], k=3, standby=True, out=str(tmp_path / "dataset"))
    summary = rollout_flow(params)
    assert len(summary.outcomes) == 3 and summary.solved == 3, summary.outcomes
    # the first episode set its own desktop up; the next two took the standby's, and none was extra
    threads = [name for name, _ in provisions]
    assert len(threads) == 3 and sum(name.startswith("standby") for name in threads) == 2, threads
    assert len(summary.desktop_waits_s) == 3
    assert not any(env.running for _, env in provisions)
    # a run with and without --standby is the same run: resumed, not redone
    again = rollout_flow(params.model_copy(update={"standby": False}))
    assert all(o.resumed for o in again.outcomes)


def test_a_standby_that_fails_falls_back_and_nothing_is_left_running(
    families, tmp_path, desktop_python, provisions, monkeypatch
):
    from tasks.rollout import standby as standby_module

    set_up, edited = standby_module.set_up_desktop, threading.Event()

    def after_the_edit(*args):  # the standby's setup starts once the bundle is broken
        if threading.current_thread().name.startswith("standby"):
            edited.wait(60)
        return set_up(*args)

    monkeypatch.setattr(standby_module, "set_up_desktop", after_the_edit)
    bundle = export_bundle(families, "files.permissions", 0, tmp_path / "final")
    spec = families["files.permissions"].instantiate(0)
    standby = Standby(DesktopProvider(tmp_path / "desktops", desktop_python))
    standby.expect(bundle, 2)
    standby.take(spec, bundle).close()
    config = bundle / "config.json"
    task = json.loads(config.read_text())
    task["config"].insert(0, {"type": "execute", "parameters": {"command": ["false"]}})
    config.write_text(json.dumps(task))
    edited.set()
    with pytest.raises(DesktopSetupError):  # the standby failed, then the desktop set up at once
        standby.take(spec, bundle)
    standby.close()
    assert len(provisions) == 3 and not any(env.running for _, env in provisions)
