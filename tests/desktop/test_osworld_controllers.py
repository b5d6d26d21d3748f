"""OSWorld's own PythonController and SetupController (desktop-env from PyPI, unmodified) drive our
in-guest server through the provider's loopback port, with the token in the URL as Basic auth."""

from __future__ import annotations

import json

import pytest
import requests

from .conftest import export_bundle, png_size

pytestmark = pytest.mark.slow


def test_python_controller_reads_the_desktop(desktop, osworld):
    vm_ip, port = desktop.osworld_address()
    controller = osworld.PythonController(vm_ip, port)
    controller.retry_interval = 0.5  # a failure should fail the test fast, not after 3 × 5 s

    assert png_size(controller.get_screenshot()) == (1920, 1080)
    assert controller.get_vm_screen_size() == {"width": 1920, "height": 1080}
    assert controller.get_vm_desktop_path() == "/home/user/Desktop"
    assert controller.get_vm_platform() == "Linux"  # `python -c "import pyautogui; …"` in the guest

    result = controller.execute_python_command("pyautogui.moveTo(321, 123); print(pyautogui.position())")
    assert result["returncode"] == 0 and "Point(x=321, y=123)" in result["output"]
    script = controller.run_python_script(
        "import openpyxl, pathlib\npathlib.Path('/home/user/Desktop/n.txt').write_text('hi')\nprint('ok')"
    )
    assert script["status"] == "success" and script["output"] == "ok\n"
    assert controller.get_file("/home/user/Desktop/n.txt") == b"hi"
    assert controller.get_file("/home/user/Desktop/absent.txt") is None  # their contract: None after retries
    tree = controller.get_vm_directory_tree("/home/user/Desktop")
    assert {"type": "file", "name": "n.txt"} in tree["children"]
    bash = controller.run_bash_script("cd ~/Desktop && ls && echo $DISPLAY", timeout=30)
    assert bash["returncode"] == 0 and bash["output"] == "n.txt\n:0\n"


def test_setup_controller_runs_a_bundle_config_and_opens_the_file(
    desktop, osworld, families, tmp_path, monkeypatch
):
    bundle = export_bundle(families, "calc.padded_ids", 2, tmp_path / "final")
    config = json.loads((bundle / "config.json").read_text())
    monkeypatch.chdir(bundle)  # the bundle's local_paths are relative to it, as OSWorld resolves them
    vm_ip, port = desktop.osworld_address()
    setup = osworld.SetupController(vm_ip, port, cache_dir=str(tmp_path / "cache"))

    assert setup.setup(config["config"]) is True  # upload_file, execute initial_setup.py, execute rm
    spec = json.loads((bundle / "task.json").read_text())
    document = f"/home/user/{spec['params']['path']}"
    assert desktop.read_file(document)[:2] == b"PK"  # the .xlsx initial_setup.py wrote in the guest
    assert desktop.state_view().entry("../tmp") is None

    setup.setup([{"type": "open", "parameters": {"path": document}}])  # returns once the window is up
    name = document.rsplit("/", 1)[1]
    assert any(name in title and "LibreOffice Calc" in title for title in desktop.window_titles())
    setup.setup(
        [
            {"type": "activate_window", "parameters": {"window_name": name}},
            {"type": "close_window", "parameters": {"window_name": name}},
        ]
    )
    desktop.wait_for_window(name, gone=True, timeout_s=60)

    # The evaluator as OSWorld runs it: postconfig uploads reward.py, `vm_command_line` POSTs the
    # command to /execute; on the untouched initial state the task is not done.
    evaluator = config["evaluator"]
    assert setup.setup(evaluator["postconfig"]) is True
    graded = requests.post(
        f"http://{vm_ip}:{port}/execute",
        json={"command": evaluator["result"]["command"], "shell": False},
        timeout=120,
    ).json()
    assert graded["returncode"] == 0 and graded["output"].strip().splitlines()[-1] == "REWARD: 0.0"
    assert "REWARD: 1.0" not in graded["output"]  # check_include_exclude would score it 0
