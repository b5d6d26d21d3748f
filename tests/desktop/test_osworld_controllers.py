"""OSWorld's own PythonController and SetupController (desktop-env from PyPI, unmodified) drive our
in-guest server through the provider's loopback port, with the token in the URL as Basic auth."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

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
    # The command prints only its verdict: exact_match against OSWORLD_PASS scores it 0.
    assert graded["returncode"] == 0 and graded["output"] == "cuagym verdict: not full reward: score 0.0"


def _controller_routes(module_file: str) -> set[str]:
    """Every server path a controller module builds as `self.http_server + "/a" [+ "/b"]`."""
    source = Path(module_file).read_text()
    found = re.findall(r'self\.http_server\s*\+\s*"(/\w+)"(?:\s*\+\s*"(/\w+)")?', source)
    return {first + second for first, second in found}


def test_every_route_the_controllers_call_is_served(osworld):
    # Read from desktop-env's own source, so a route its controllers call and we lack fails here
    # (as /window_size, /wallpaper and /setup/change_wallpaper did: 404, then 15 s of retries).
    import desktop_env.controllers.python as python_module
    import desktop_env.controllers.setup as setup_module

    from infra.desktop_server.app import create_app
    from infra.desktop_server.session import Session, SessionConfig

    called = _controller_routes(python_module.__file__) | _controller_routes(setup_module.__file__)
    assert {"/window_size", "/wallpaper", "/setup/change_wallpaper", "/start_recording"} <= called
    served = {route.path for route in create_app(Session(SessionConfig()), "t" * 32).app.routes}
    assert called - served == set()


def _xdotool_size(controller, class_name: str) -> tuple[int, int]:
    result = controller.run_bash_script(
        f"xdotool search --sync --classname {class_name} getwindowgeometry --shell", timeout=30
    )
    assert result["returncode"] == 0, result
    fields = dict(line.split("=", 1) for line in result["output"].split())
    return int(fields["WIDTH"]), int(fields["HEIGHT"])


def test_window_size_and_verified_execute_through_osworld_controllers(desktop, osworld, tmp_path):
    vm_ip, port = desktop.osworld_address()
    controller = osworld.PythonController(vm_ip, port)
    controller.retry_interval = 0.5
    setup = osworld.SetupController(vm_ip, port, cache_dir=str(tmp_path / "cache"))

    # launch returns at once; execute_with_verification polls until the window is there.
    assert setup.setup(
        [
            {"type": "launch", "parameters": {"command": ["xterm"]}},
            {
                "type": "execute_with_verification",
                "parameters": {
                    "command": ["true"],
                    "verification": {"window_exists": "XTERM"},  # matched case-insensitively
                    "max_wait_time": 60,
                    "check_interval": 0.2,
                },
            },
        ]
    )
    assert controller.get_vm_window_size("xterm") == dict(
        zip(("width", "height"), _xdotool_size(controller, "xterm"), strict=True)
    )
    # A real window's size, not a constant: resized by xdotool, the route reports the new size.
    before = controller.get_vm_window_size("XTerm")  # the class name, any case, as OSWorld matches
    resized = controller.run_bash_script(  # openbox maximises every window; un-maximised, it can shrink
        "wmctrl -x -r xterm -b remove,maximized_vert,maximized_horz && "
        "xdotool search --classname xterm windowsize --sync %@ 500 300",
        timeout=30,
    )
    assert resized["returncode"] == 0, resized
    after = controller.get_vm_window_size("xterm")
    assert after != before and after == dict(
        zip(("width", "height"), _xdotool_size(controller, "xterm"), strict=True)
    )

    started = time.monotonic()
    assert controller.get_vm_window_size("no-such-app") is None  # 404 at once, then their 3 retries
    assert time.monotonic() - started < 5
    with pytest.raises(Exception, match="Setup step 1 failed: _execute_with_verification_setup"):
        setup.setup(
            [
                {
                    "type": "execute_with_verification",
                    "parameters": {
                        "command": "echo ran",
                        "shell": True,
                        "verification": {"window_exists": "no such window", "command_success": "true"},
                        "max_wait_time": 1,
                        "check_interval": 0.2,
                    },
                }
            ]
        )
    reply = requests.post(
        f"http://{vm_ip}:{port}/setup/execute_with_verification",
        json={
            "command": "echo ran",
            "shell": True,
            "verification": {"command_success": "false"},
            "max_wait_time": 0.5,
        },
        timeout=30,
    )
    assert reply.status_code == 500
    assert reply.json()["status"] == "verification_failed" and reply.json()["output"] == "ran\n"


def _pixel(png: bytes, at: tuple[int, int]) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").getpixel(at)


def test_wallpaper_through_osworld_controllers(desktop, osworld, tmp_path):
    vm_ip, port = desktop.osworld_address()
    controller = osworld.PythonController(vm_ip, port)
    controller.retry_interval = 0.5
    setup = osworld.SetupController(vm_ip, port, cache_dir=str(tmp_path / "cache"))
    corner = (1900, 1060)  # no window covers it on a fresh desktop

    fresh = controller.get_vm_wallpaper()  # the desktop's own background before any change
    assert png_size(fresh) == (1920, 1080)
    assert _pixel(fresh, corner) == _pixel(controller.get_screenshot(), corner)

    made = controller.run_python_script(
        "from PIL import Image\nImage.new('RGB', (64, 36), (200, 30, 30)).save('/home/user/red.png')"
    )
    assert made["status"] == "success", made
    assert setup.setup([{"type": "change_wallpaper", "parameters": {"path": "~/red.png"}}]) is True
    assert controller.get_vm_wallpaper() == desktop.read_file("/home/user/red.png")
    # Painted on the root window: it shows on screen wherever no window covers it.
    assert _pixel(controller.get_screenshot(), corner) == (200, 30, 30)

    base = f"http://{vm_ip}:{port}"
    missing = requests.post(
        f"{base}/setup/change_wallpaper", json={"path": "/home/user/none.png"}, timeout=10
    )
    assert missing.status_code == 404 and missing.text == "File not found: /home/user/none.png"
    assert requests.post(f"{base}/setup/change_wallpaper", json={}, timeout=10).status_code == 400
    desktop.run_script("open('/home/user/notes.txt', 'w').write('not an image')", name="notes.py")
    not_image = requests.post(f"{base}/setup/change_wallpaper", json={"path": "~/notes.txt"}, timeout=10)
    assert not_image.status_code == 422
    assert controller.get_vm_wallpaper() == desktop.read_file("/home/user/red.png")  # unchanged


def test_recording_answers_at_once_that_it_is_not_available(desktop, osworld, tmp_path):
    vm_ip, port = desktop.osworld_address()
    # No ffmpeg in any desktop: OSWorld's reply for a platform without recording, never a hang.
    for route in ("/start_recording", "/end_recording"):
        started = time.monotonic()
        reply = requests.post(f"http://{vm_ip}:{port}{route}", timeout=10)
        assert reply.status_code == 501 and "Recording not yet implemented" in reply.text
        assert time.monotonic() - started < 1
    controller = osworld.PythonController(vm_ip, port)
    controller.retry_interval = 0.1
    started = time.monotonic()
    controller.start_recording()
    controller.end_recording(str(tmp_path / "video.mp4"))
    assert time.monotonic() - started < 3 and not (tmp_path / "video.mp4").exists()
