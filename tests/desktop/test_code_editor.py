"""Real VS Code on a desktop (infra/code_server.py, infra/desktop_server/code_editor.py): code-server
installed by `cuagym desktop setup` runs inside the sandbox and shows in a Chromium app window, with
VS Code's user data where the desktop build keeps it, the user's settings as the task wrote them,
and a first screen without the welcome page, the chat side bar or the trust prompt."""

from __future__ import annotations

import json

import pytest

from infra.code_server import code_server_ready, ensure_code_server
from infra.settings import get_settings

pytestmark = pytest.mark.slow
LAUNCH = ["/usr/bin/env", "PYTHONPATH=/opt/cuagym/server", "python3", "-m", "desktop_server.code_editor"]


@pytest.fixture(scope="module")
def code_server():
    root = get_settings().code_server_dir
    ensure_code_server(root)  # `make setup` installed it; on a machine without it this installs it (minutes)
    assert code_server_ready(root)
    return root


def test_vs_code_opens_the_folder_with_the_users_settings_and_a_clean_first_screen(code_server, desktop):
    settings = {"editor.tabSize": 2, "files.exclude": {"**/*.tmp": True}}
    desktop.client.execute(["mkdir", "-p", "/home/user/.config/Code/User", "/home/user/api"], timeout_s=30)
    desktop.client.upload("/home/user/.config/Code/User/settings.json", json.dumps(settings).encode())
    desktop.client.upload("/home/user/api/main.py", b"print('hello')\n")
    desktop.client.launch([*LAUNCH, "/home/user/api"])
    title = desktop.wait_for_window("api - code-server", timeout_s=90)
    assert title == "api - code-server"
    names = set()
    for _ in range(100):  # the workbench renders its parts after the title
        names = {e.name for e in _elements(desktop)}
        if "main.py" in names:
            break
    assert {"Explorer", "main.py"} <= names, sorted(names)[:40]
    assert not any("Welcome" in n or "Trust" in n for n in names)
    # the user's settings as the task wrote them; the first-screen defaults beneath them, per machine
    user = json.loads(desktop.read_file(".config/Code/User/settings.json"))
    assert user == settings
    machine = json.loads(desktop.read_file(".config/Code/Machine/settings.json"))
    assert machine["workbench.startupEditor"] == "none" and machine["chat.disableAIFeatures"] is True


def _elements(desktop):
    from tasks.rollout.scripted import TeacherScreen

    return TeacherScreen(desktop).elements()


def test_the_browser_seed_is_built_once_from_a_clean_exit_and_holds_the_workbenchs_caches(
    code_server, desktop_provider
):
    """VS Code's browser profile (infra/envs/desktop/code_seed.py), as `make setup` built it: the
    workbench's storage for the editor's origin, no running browser's locks, a clean last exit, and
    readable by the guest user; asking again reuses it."""
    from infra.envs.desktop.code_seed import MARKER, SEED_DIR, code_seed_ready, ensure_code_seed

    seeds = get_settings().app_seeds_dir
    out = ensure_code_seed(desktop_provider, seeds)
    assert out == seeds / SEED_DIR and code_seed_ready(seeds)
    built = (out / MARKER).stat().st_mtime_ns
    assert ensure_code_seed(desktop_provider, seeds) == out and (out / MARKER).stat().st_mtime_ns == built
    profile = out / "chromium"
    assert (profile / "Default/IndexedDB/http_127.0.0.1_8300.indexeddb.leveldb").is_dir()
    assert not list(profile.glob("Singleton*"))
    assert json.loads((profile / "Default/Preferences").read_text())["profile"]["exit_type"] == "Normal"
    assert all(p.stat().st_mode & 0o004 and not p.stat().st_mode & 0o002 for p in profile.rglob("*"))
