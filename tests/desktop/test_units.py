"""Fast checks of the desktop pieces that need no X server: GUI actions, the task-config schema, and
the in-guest server's token guard and reply shapes (Starlette's TestClient, in process)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from infra.desktop_server.app import create_app
from infra.desktop_server.session import Session, SessionConfig
from infra.envs.desktop.actions import (
    GUI_ACTION,
    Click,
    DragTo,
    KeyPress,
    MoveTo,
    Scroll,
    TypeText,
    xdotool_args,
)
from infra.envs.desktop.setup import load_task, task_documents, task_terminal
from infra.errors import ConfigError

from .conftest import export_bundle

TOKEN = "t" * 32


def test_actions_render_to_xdotool():
    assert xdotool_args(KeyPress(keys=["ctrl", "s"])) == ["key", "--clearmodifiers", "ctrl+s"]
    assert xdotool_args(KeyPress(keys=["enter"])) == ["key", "--clearmodifiers", "Return"]
    assert xdotool_args(KeyPress(keys=["ctrl", "+"]))[-1] == "ctrl+plus"
    assert xdotool_args(Click(x=10, y=20, button="right", count=2))[:4] == ["mousemove", "--sync", "10", "20"]
    assert xdotool_args(Click(x=10, y=20, button="right", count=2))[-1] == "3"
    # where the pointer already is, no --sync: xdotool would wait 15 s for a motion that never comes
    assert xdotool_args(Click(x=10, y=20), at=(10, 20))[:3] == ["mousemove", "10", "20"]
    assert xdotool_args(MoveTo(x=10, y=20), at=(10, 21)) == ["mousemove", "--sync", "10", "20"]
    assert "--sync" not in xdotool_args(DragTo(x=5, y=5), at=(5, 5))
    assert xdotool_args(TypeText(text="-n"))[-2:] == ["--", "-n"]  # text that looks like an option
    assert xdotool_args(Scroll(dy=-3))[-1] == "4"  # wheel up


def test_actions_are_a_closed_schema():
    assert isinstance(GUI_ACTION.validate_python({"type": "key", "keys": ["pgdn"]}), KeyPress)
    with pytest.raises(ValidationError, match="unknown key 'hyper'"):
        KeyPress(keys=["hyper"])
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        GUI_ACTION.validate_python({"type": "teleport", "x": 1})
    with pytest.raises(ValidationError):
        Click(x=-1, y=0)


def test_exported_config_loads_and_unknown_steps_fail_at_load(tmp_path, families):
    bundle = export_bundle(families, "calc.padded_ids", 1, tmp_path / "final")
    task = load_task(bundle / "config.json")
    assert [s.type for s in task.config] == ["upload_file", "execute", "execute"]
    assert task.related_apps == ["libreoffice_calc"]
    bad = json.loads((bundle / "config.json").read_text())
    bad["config"].append({"type": "chrome_open_tabs", "parameters": {"urls_to_open": []}})
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(ConfigError, match="upload_file, download, execute"):
        load_task(tmp_path / "bad.json")


def test_task_documents_prefers_the_desktop_and_skips_hidden(tmp_path):
    home = tmp_path / "home"
    for rel in (
        "Documents/b.xlsx",
        "Desktop/a.xlsx",
        ".config/x.xlsx",
        "Desktop/notes.docx",
        "Desktop/~$lock.xlsx",
    ):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text("x")
    assert task_documents(home, ["libreoffice_calc"]) == [
        "/home/user/Desktop/a.xlsx",
        "/home/user/Documents/b.xlsx",
    ]
    assert task_documents(home, ["vscode"]) == []


def test_files_tasks_are_worked_from_a_terminal_and_vscode_ones_in_vs_code():
    assert task_terminal(["os"]) and task_terminal(["chrome", "terminal"])
    assert not task_terminal(["libreoffice_calc"]) and not task_terminal(["chrome"])
    assert not task_terminal(["vscode"])  # real VS Code, a program app (skills/vscode/app.yaml)


@pytest.fixture
def server():
    with TestClient(create_app(Session(SessionConfig()), TOKEN)) as client:
        yield client


def test_token_is_required_as_bearer_or_basic_password(server):
    assert server.get("/platform").status_code == 401
    assert (
        server.get("/platform", headers={"Authorization": "Bearer wrong-token-wrong-token"}).status_code
        == 401
    )
    assert server.get("/platform", headers={"Authorization": f"Bearer {TOKEN}"}).text in ("Linux", "Darwin")
    basic = base64.b64encode(f"cuagym:{TOKEN}".encode()).decode()
    response = server.get("/platform", headers={"Authorization": f"Basic {basic}"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")


def test_execute_shapes_and_errors(server):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    ok = server.post(
        "/execute", json={"command": ["sh", "-c", "echo out; echo err >&2; exit 3"]}, headers=auth
    )
    assert ok.status_code == 200
    assert ok.json() == {"status": "success", "output": "out\n", "error": "err\n", "returncode": 3}
    assert (
        server.post("/setup/execute", json={"command": "echo a b", "shell": False}, headers=auth).json()[
            "output"
        ]
        == "a b\n"
    )
    missing = server.post("/execute", json={"command": ["no-such-program-xyz"]}, headers=auth)
    assert (
        missing.status_code == 500
        and missing.json()["status"] == "error"
        and "no-such-program-xyz" in missing.json()["message"]
    )
    slow = server.post("/execute", json={"command": ["sleep", "5"], "timeout": 0.3}, headers=auth)
    assert slow.status_code == 500 and slow.json()["timed_out"] is True
    assert server.post("/execute", content=b"not json", headers=auth).status_code == 400
    py = server.post("/run_python", json={"code": "print(6*7)"}, headers=auth).json()
    assert (
        py["status"] == "success"
        and py["output"] == "42\n"
        and py["return_code"] == 0
        and py["need_more"] is False
    )
    assert server.post("/run_python", json={}, headers=auth).json() == {
        "status": "error",
        "message": "Code not supplied!",
    }
    bash = server.post(
        "/run_bash_script", json={"script": "echo hi; echo oops >&2; exit 1"}, headers=auth
    ).json()
    assert bash == {"status": "error", "output": "hi\noops\n", "error": "", "returncode": 1}


def test_file_routes_shapes_and_errors(server, tmp_path: Path):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    target = tmp_path / "deep" / "dir" / "f.bin"
    up = server.post(
        "/setup/upload",
        data={"file_path": str(target)},
        files={"file_data": ("f.bin", b"\x00\x01abc")},
        headers=auth,
    )
    assert (
        up.status_code == 200
        and up.text == "File Uploaded: 5 bytes"
        and target.read_bytes() == b"\x00\x01abc"
    )
    assert server.post("/setup/upload", data={"file_path": str(target)}, headers=auth).json() == {
        "error": "file_path and file_data are required"
    }
    got = server.post("/file", data={"file_path": str(target)}, headers=auth)
    assert got.content == b"\x00\x01abc" and "attachment" in got.headers["content-disposition"]
    assert server.post("/file", data={"file_path": str(tmp_path / "nope")}, headers=auth).status_code == 404
    assert server.post("/file", data={}, headers=auth).json() == {"error": "file_path is required"}
    tree = server.post("/list_directory", json={"path": str(tmp_path / "deep")}, headers=auth).json()[
        "directory_tree"
    ]
    assert tree == {
        "type": "directory",
        "name": "deep",
        "children": [{"type": "directory", "name": "dir", "children": [{"type": "file", "name": "f.bin"}]}],
    }
    assert server.post("/list_directory", json={"path": str(target)}, headers=auth).status_code == 400
    assert server.post("/list_directory", json={}, headers=auth).json() == {
        "error": "Missing 'path' parameter"
    }


def test_window_and_accessibility_routes_fail_loudly_without_a_session(server):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert server.post("/setup/open_file", json={}, headers=auth).text == "Path not supplied!"
    assert (
        server.post("/setup/open_file", json={"path": "/no/such/file.xlsx"}, headers=auth).status_code == 404
    )
    assert server.post("/setup/activate_window", json={}, headers=auth).status_code == 400
    # This session never started AT-SPI: a 503 that says so, never an empty tree.
    a11y = server.get("/accessibility", headers=auth)
    assert a11y.status_code == 503 and "accessibility is not running" in a11y.json()["message"]


class _Button:
    """An AT-SPI push button as pyatspi shows it, with its action's description left unset."""

    name = "Run Task"

    def getState(self):  # noqa: N802 (pyatspi's names)
        return SimpleNamespace(get_states=lambda: [])

    def get_attributes(self):
        return {"tag": "button"}

    def getRoleName(self):  # noqa: N802
        return "push button"

    def queryAction(self):  # noqa: N802
        return SimpleNamespace(
            nActions=1,
            getName=lambda i: "press",
            getDescription=lambda i: None,
            getKeyBinding=lambda i: "Return",
        )

    def __getattr__(self, name):  # queryText, queryImage, queryValue, …: not implemented
        if name.startswith("query"):
            return _unsupported
        raise AttributeError(name)

    def __iter__(self):
        return iter(())


def _unsupported():
    raise NotImplementedError


def test_an_accessible_with_unset_action_texts_still_serialises():
    """VS Code's Chromium leaves action descriptions unset (None over AT-SPI): the tree omits them
    instead of failing the whole GET /accessibility with a 500."""
    from infra.desktop_server import a11y

    pyatspi = SimpleNamespace(Registry=SimpleNamespace(getDesktop=lambda i: [_Button()]))
    xml = a11y.tree_xml(pyatspi)
    assert '<push-button name="Run Task"' in xml and "press_kb" in xml and "press_desc" not in xml


class _Screens:
    """An mss-like grabber showing one frame after another (the last one stays)."""

    def __init__(self, *frames):
        self.frames, self.monitors = list(frames), [{"width": 64, "height": 64}]

    def grab(self, _monitor):
        frame = self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]
        return SimpleNamespace(size=frame.size, bgra=frame.convert("RGBX").tobytes("raw", "BGRX"))


class _Clock:
    """settle.py's `time`, advanced by its sleeps: the rule's waits, counted without waiting."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def _screen(colour):
    from PIL import Image

    return Image.new("RGB", (64, 64), colour)


@pytest.mark.parametrize(
    ("before", "frames", "waited"),
    [
        (None, ["white"], "patience"),  # nothing to compare with: a still screen is trusted late
        ("white", ["white"], "patience"),  # the app has not drawn yet: same wait
        ("grey", ["white"], "quiet"),  # it drew before the wait began: half a second of stillness
        ("grey", ["white", "white", "black"], "quiet after the change"),  # it draws during the wait
    ],
)
def test_the_settle_rule_counts_a_change_since_the_frame_saved_before_the_app(
    monkeypatch, before, frames, waited
):
    from infra.desktop_server import settle

    clock = _Clock()
    monkeypatch.setattr(settle, "time", clock)
    monkeypatch.setattr(settle, "TOLERANCE_PX", 0)
    screens = _Screens(*(_screen(c) for c in frames))
    assert settle.wait_until_painted(screens, deadline=60, before=before and _screen(before))
    expected = {
        "patience": settle.PATIENCE_S,
        "quiet": settle.QUIET_S,
        "quiet after the change": 2 * settle.POLL_S + settle.QUIET_S,
    }[waited]
    assert clock.now == pytest.approx(expected, abs=settle.POLL_S + 1e-9)


def test_a_frame_saved_before_an_app_loads_back_the_same(tmp_path):
    from infra.desktop_server import settle

    saved = tmp_path / "before.ppm"
    settle.save_frame(_Screens(_screen((10, 20, 30))), str(saved))
    assert settle.load_frame(str(saved)).getpixel((5, 5)) == (10, 20, 30)
