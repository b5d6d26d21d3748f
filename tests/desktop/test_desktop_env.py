"""The `desktop` provider as the pipeline uses it: scripts, state views, snapshots, resets, several
desktops side by side, the token on the TCP port, and nothing left running after close."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from infra.envs.base import Capability, EnvRole
from infra.envs.desktop.actions import Click, KeyPress
from infra.errors import DesktopError, DesktopServerError, EnvError

from .conftest import png_size

pytestmark = pytest.mark.slow


def _alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie (bwrap's namespace init is reaped by the host's init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_scripts_state_snapshot_and_reset(desktop):
    assert {Capability.SCREENSHOT, Capability.GUI_INPUT, Capability.SNAPSHOT} <= desktop.capabilities
    made = desktop.run_script(
        "import os, pathlib\npathlib.Path('/home/user/Desktop/a.txt').write_text(os.environ['X'])\n"
        "print(os.environ['DISPLAY'])",
        name="w.py",
        env={"X": "one"},
    )
    assert made.ok and made.stdout == ":0\n"
    assert desktop.state_view().entry("Desktop/a.txt").size == 3
    snap = desktop.snapshot()
    desktop.run_script("open('/home/user/Desktop/a.txt','w').write('two')", name="w2.py")
    desktop.restore(snap)  # a fresh desktop over the snapshot
    assert desktop.read_file("Desktop/a.txt") == b"one"
    desktop.reset()  # back to the state at provision: an empty Desktop
    assert desktop.state_view().entry("Desktop/a.txt") is None
    timed_out = desktop.run_script(
        "import time; time.sleep(30)",
        name="slow.py",
        limits=desktop.provider.script_limits.__class__(timeout_s=1),
    )
    assert timed_out.timed_out and timed_out.exit_code == 124


def test_gui_input_moves_the_real_pointer_and_reports_failures(desktop):
    desktop.gui_input(Click(x=400, y=300, button="right"))
    assert desktop.client.cursor_position() == (400, 300)
    desktop.gui_input(KeyPress(keys=["escape"]))
    with pytest.raises(DesktopError):
        desktop.gui_input(Click(x=5000, y=5000))  # off screen: xdotool refuses, and we say so


def test_tcp_port_needs_the_token_and_survives_reset(desktop):
    url = desktop.serve_tcp()
    assert url.startswith("http://127.0.0.1:")
    assert httpx.get(f"{url}/screenshot", timeout=30).status_code == 401
    vm_ip, port = desktop.osworld_address()
    with_token = httpx.get(f"http://{vm_ip}:{port}/screenshot", timeout=30)
    assert with_token.status_code == 200 and png_size(with_token.content) == (1920, 1080)
    desktop.reset()
    assert httpx.get(f"http://{vm_ip}:{port}/platform", timeout=30).text == "Linux"  # same port, same token
    with pytest.raises(DesktopServerError, match="HTTP 404"):
        desktop.client.read_file("/home/user/nothing-here")


def test_desktops_side_by_side_are_isolated_and_fully_stopped(desktop_provider):
    envs = desktop_provider.provision_many("side-by-side", EnvRole.ROLLOUT, 2)
    a, b = envs
    try:
        a.run_script("open('/home/user/Desktop/only-a.txt','w').write('a')", name="w.py")
        assert b.state_view().entry("Desktop/only-a.txt") is None
        for env in envs:  # each has its own X server on :0, in its own namespaces
            assert png_size(env.screenshot()) == (1920, 1080)
            memory = env.memory()
            assert memory.processes >= 4 and 10 < memory.pss_mb < 1500
        # The guest has no network: only the loopback exists in its namespace.
        probe = a.client.execute(
            ["python3", "-c", "import socket; socket.create_connection(('1.1.1.1', 53), 2)"]
        )
        assert probe.returncode != 0 and "unreachable" in probe.error.lower()
        pids = a.pids() + b.pids()
    finally:
        for env in envs:
            env.close()
    assert pids and not [pid for pid in pids if _alive(pid)]
    with pytest.raises(EnvError, match="closed"):
        a.screenshot()
