"""A bundle of each program app (Chromium, Thunderbird, VS Code, …: `opens: {by: program}`), driven
the way vanilla OSWorld drives it: its own SetupController runs config.json against our desktop
(the setup script, then the `launch` of the app, whose window comes up with the profile the setup
wrote), its PythonController works the desktop, and the evaluator's postconfig (the app asked to
quit, reward.py uploaded) runs before `vm_command_line` reads the verdict — not full reward on the
initial state, a pass once the golden patch applied while the app was closed. `cuagym verify`
passes each bundle too."""

from __future__ import annotations

import json

import pytest
import requests

from infra import apps
from skills.kit import load_families
from tasks.reward_contract import OSWORLD_PASS
from tasks.verify import verify_bundle

from .conftest import export_bundle

pytestmark = pytest.mark.slow


def _program_family() -> dict[str, str]:
    """{program app: its first taught single-app family}."""
    from infra.settings import PROJECT_ROOT

    families = load_families(PROJECT_ROOT / "skills")
    found = {}
    for fid, family in sorted(families.items()):
        app = family.apps[0]
        if len(family.apps) == 1 and family.teacher is not None and apps.program(app) is not None:
            found.setdefault(app, fid)
    return found


PROGRAMS = _program_family()


def _verdict(vm_ip: str, port: int, evaluator: dict) -> str:
    reply = requests.post(
        f"http://{vm_ip}:{port}/execute",
        json={"command": evaluator["result"]["command"], "shell": False},
        timeout=120,
    ).json()
    assert reply["returncode"] == 0, reply
    return reply["output"]


def test_there_is_a_program_app_to_drive():
    assert "chromium" in PROGRAMS  # the list below is not empty by accident


@pytest.mark.parametrize("app", sorted(PROGRAMS))
def test_osworlds_controllers_set_up_launch_and_grade_a_program_app(
    app, desktop, osworld, families, tmp_path, monkeypatch, provider
):
    bundle = export_bundle(families, PROGRAMS[app], 0, tmp_path / "final")
    config = json.loads((bundle / "config.json").read_text())
    assert config["related_apps"] == [apps.osworld_name(app)]
    monkeypatch.chdir(bundle)  # the bundle's local_paths are relative to it, as OSWorld resolves them
    vm_ip, port = desktop.osworld_address()
    setup = osworld.SetupController(vm_ip, port, cache_dir=str(tmp_path / "cache"))
    controller = osworld.PythonController(vm_ip, port)
    controller.retry_interval = 0.5

    assert setup.setup(config["config"]) is True  # upload, execute initial_setup.py, rm, launch the app
    title = desktop.wait_for_window(apps.program(app).window, timeout_s=90)
    assert controller.get_screenshot()[:8] == b"\x89PNG\r\n\x1a\n" and title
    evaluator = config["evaluator"]
    assert setup.setup(evaluator["postconfig"]) is True  # the app asked to quit, reward.py uploaded
    if apps.app(app).quit:  # an app that writes its state on exit (VS Code saves as it goes: none)
        desktop.wait_for_window(apps.program(app).window, gone=True, timeout_s=30)
    assert _verdict(vm_ip, port, evaluator) == "cuagym verdict: not full reward: score 0.0"

    # the golden patch, applied as a script through OSWorld's controller while the app is closed
    patch = controller.run_python_script((bundle / "golden_patch.py").read_text())
    assert patch["status"] == "success", patch
    assert _verdict(vm_ip, port, evaluator) == OSWORLD_PASS

    report = verify_bundle(bundle, provider)  # `cuagym verify`: fresh sandboxes, its own files
    assert report.ok and (report.reward_initial, report.reward_golden) == (0.0, 1.0), report
