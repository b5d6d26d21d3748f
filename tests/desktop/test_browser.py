"""Web apps in a real desktop: the hub's apps shown full-screen in Debian's Chromium inside the
desktop's sandbox, on the env's own hub session, driven through GUI input and scored by the bundle's
own reward.py — plus the network wall (the browser reaches the hub route and nothing else), a
cross-app bundle (browser and Calc), and a reset that puts the web state back.

The GUI test drives the chat the way an agent does: it finds what to click in the accessibility tree
(GET /accessibility, where Chromium exports the page with screen coordinates) and acts with xdotool
through `gui_input`. Screenshot for people to look at: var/screenshots/desktop-chat.png.
"""

from __future__ import annotations

import ast
import io
import json
import re
import socket
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.envs.desktop.actions import Click, KeyPress, MoveTo, TypeText
from infra.envs.desktop.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    PROFILE_DIR,
    WEB_APP_TITLES,
    chromium_command,
    rendered_title,
)
from infra.envs.desktop.sandbox import GUEST_HUB_SOCKET, DesktopConfig, DesktopSandbox
from infra.envs.local import HUB_ROUTE, WEB_APPS
from infra.errors import DesktopError, EnvError
from infra.settings import PROJECT_ROOT

from .conftest import export_bundle, save_screenshot

CP = "{https://accessibility.ubuntu.example.org/ns/component}"
HUB_APPS = PROJECT_ROOT / "infra" / "hub" / "apps"


# --- fast checks (no X server) ---------------------------------------------------------------------


def test_web_app_titles_are_the_apps_page_titles():
    from infra.hub.registry import load_mock_apps

    for mock in load_mock_apps(WEB_APPS):  # a hand-written app's index.html, or an engine app's page
        index = mock.index_html or (HUB_APPS / mock.name / "static" / "index.html").read_text()
        assert re.search(r"<title>(.*?)</title>", index).group(1) == WEB_APP_TITLES[mock.name]
    loading, rendered = "Team Chat - Chromium", "#general - Acme - Team Chat - Chromium"
    assert rendered_title([loading], "chat") is None  # the page before the app rendered its state
    assert rendered_title(["x.xlsx - LibreOffice Calc", rendered], "chat") == rendered


def test_chromium_runs_full_screen_on_a_private_profile_without_the_wrapper():
    argv = chromium_command("http://127.0.0.1:8400/chat/?sid=abc")
    assert argv[:2] == ["/usr/bin/env", "ACCESSIBILITY_ENABLED=1"] and argv[2] == CHROMIUM
    assert argv[-1] == "http://127.0.0.1:8400/chat/?sid=abc"
    assert {"--kiosk", "--no-sandbox", "--no-first-run", f"--user-data-dir={PROFILE_DIR}"} <= set(argv)
    assert PROFILE_DIR.startswith("/tmp/")  # the sandbox's private tmpfs: a fresh profile per start
    plain = chromium_command("about:blank", accessibility=False)
    assert plain == [CHROMIUM, *CHROMIUM_FLAGS, "about:blank"]


def test_provider_refuses_web_apps_without_a_hub(tmp_path, desktop_python):
    provider = DesktopProvider(tmp_path / "desktops", desktop_python)
    with pytest.raises(EnvError, match="needs the hub"):
        provider.provision("web-task", EnvRole.DEBUG, apps=["chat"])


def test_sandbox_holds_the_hub_socket_and_runs_the_route_around_the_server(tmp_path, desktop_python):
    sock = tmp_path / "hub.sock"
    sock.touch()
    box = DesktopSandbox(
        home=tmp_path / "home",
        python=desktop_python,
        scripts=tmp_path / "scripts",
        log_path=tmp_path / "desktop.log",
        config=DesktopConfig(),
        hub_socket=sock,
        env={"CUAGYM_SID": "s"},
    )
    binds = {b.dest: b for b in box._binds()}
    assert binds[GUEST_HUB_SOCKET].src == sock and not binds[GUEST_HUB_SOCKET].writable
    argv = box._argv()
    assert argv[1:7] == [HUB_ROUTE, "--uds", GUEST_HUB_SOCKET, "--port", "8400", "--"]
    assert "desktop_server" in argv[-1] or "desktop_server" in " ".join(argv[7:])
    plain = DesktopSandbox(
        home=tmp_path / "home",
        python=desktop_python,
        scripts=tmp_path / "scripts",
        log_path=tmp_path / "desktop.log",
        config=DesktopConfig(),
    )
    assert GUEST_HUB_SOCKET not in {b.dest for b in plain._binds()} and HUB_ROUTE not in plain._argv()


def test_openbox_passes_every_click_on_to_the_application():
    # Openbox keeps a press bound on the Frame context for itself (it never replays it to the
    # window): with one, no click reached Chromium or LibreOffice, while motion and keys did.
    rc = ET.parse(PROJECT_ROOT / "infra" / "desktop_server" / "openbox-rc.xml").getroot()
    ns = {"ob": "http://openbox.org/3.4/rc"}
    for context in rc.iterfind("ob:mouse/ob:context", ns):
        if context.get("name") in ("Frame", "Desktop", "Root"):
            assert not context.findall("ob:mousebind", ns), context.get("name")
    client = rc.find("ob:mouse/ob:context[@name='Client']", ns)
    assert {b.get("button") for b in client.iterfind("ob:mousebind", ns)} == {"Left", "Middle", "Right"}


# --- real desktops ---------------------------------------------------------------------------------


@pytest.fixture
def web_provider(tmp_path: Path, desktop_python: Path, hub_route) -> DesktopProvider:
    return DesktopProvider(tmp_path / "desktops", desktop_python, hub=hub_route)


def _provision(provider: DesktopProvider, bundle: Path) -> DesktopEnv:
    apps = json.loads((bundle / "task.json").read_text())["apps"]
    return provider.provision(bundle.name, EnvRole.ROLLOUT, apps=apps)


def _params(bundle: Path) -> dict:
    return json.loads((bundle / "task.json").read_text())["params"]


def _reward(env: DesktopEnv, bundle: Path) -> str:
    result = env.run_script((bundle / "reward.py").read_text(), name="reward.py")
    assert result.ok, result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]


def _go(provider: DesktopProvider, env: DesktopEnv, app: str) -> dict:
    with provider.hub.client() as hub:
        return hub.get(f"/{app}/go", params={"sid": env.sid}).json()


def _screen_is_busy(png: bytes) -> bool:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    low, high = image.getextrema()
    return high - low > 100 and len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 20


def _elements(env: DesktopEnv, match) -> list[tuple[int, int]]:
    """Centres of the on-screen accessible nodes for which `match(tag, name, text)` holds."""
    root = ET.fromstring(env.client.accessibility_tree())
    found = []
    for node in root.iter():
        coord, size = node.get(f"{CP}screencoord"), node.get(f"{CP}size")
        if not (coord and size) or not match(node.tag, node.get("name") or "", (node.text or "").strip()):
            continue
        (x, y), (w, h) = ast.literal_eval(coord), ast.literal_eval(size)
        if w > 0 and h > 0 and 0 <= x + w // 2 < 1920 and 0 <= y + h // 2 < 1080:
            found.append((x + w // 2, y + h // 2))
    return found


def _wait_for(env: DesktopEnv, match, what: str, *, timeout_s: float = 30.0) -> list[tuple[int, int]]:
    deadline = time.monotonic() + timeout_s
    while not (found := _elements(env, match)):
        if time.monotonic() > deadline:
            save_screenshot(env, "chat-failed")
            raise AssertionError(f"no {what} on screen after {timeout_s:g} s (see desktop-chat-failed.png)")
        time.sleep(0.5)
    return found


def _wait_hub(provider, env, app: str, check, what: str, timeout_s: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while not check(go := _go(provider, env, app)):
        if time.monotonic() > deadline:
            raise AssertionError(f"the hub never showed {what}; diff: {go['state_diff']}")
        time.sleep(0.3)
    return go


@pytest.mark.slow
def test_chat_in_chromium_gui_input_changes_the_hub_and_reward_py_scores_it(web_provider, families, tmp_path):
    bundle = export_bundle(families, "chat.thread_reply_react", 3, tmp_path / "final")
    P = _params(bundle)
    env = _provision(web_provider, bundle)
    try:
        opened = env.setup_from_config(bundle / "config.json", timeout_s=240)
        assert opened == [f"http://127.0.0.1:8400/chat/?sid={env.sid}"]
        env.mark_initial()
        # What the agent starts from: the task's state, plus the read marker opening the app moved.
        start = _go(web_provider, env, "chat")["current_state"]
        titles = env.window_titles()
        assert len(titles) == 1 and titles[0].endswith(" - Team Chat - Chromium"), titles
        shot = env.screenshot()
        assert _screen_is_busy(shot)  # the app's UI, not a blank or an error page
        assert _reward(env, bundle) == "REWARD: 0.0"

        # 1. open the channel from the sidebar (the link's name carries its unread count)
        channel = P["channel_name"]
        link = _wait_for(
            env, lambda t, n, _: t == "link" and (n == channel or n.startswith(channel + " ")), "channel link"
        )
        env.gui_input(Click(x=link[0][0], y=link[0][1]))
        question = _wait_for(env, lambda t, n, x: P["question"] in (n, x), "the question")[0]
        # 2. hover the question: its action bar appears; reply in its thread
        env.gui_input(MoveTo(x=question[0], y=question[1]))
        reply_button = _wait_for(env, lambda t, n, _: n == "Reply in thread", "Reply in thread")[0]
        env.gui_input(Click(x=reply_button[0], y=reply_button[1]))
        composer = _wait_for(env, lambda t, n, _: t == "entry" and n == "Reply…", "the thread composer")[0]
        env.gui_input(Click(x=composer[0], y=composer[1]))
        env.gui_input(TypeText(text=P["reply"]))
        env.gui_input(KeyPress(keys=["enter"]))

        def replied(go):
            now, before = go["current_state"]["messages"], go["initial_state"]["messages"]
            return any(
                m["thread"] == P["target"] and m["text"] == P["reply"]
                for k, m in now.items()
                if k not in before
            )

        _wait_hub(web_provider, env, "chat", replied, "the thread reply")
        assert _reward(env, bundle) == "REWARD: 0.6"  # the reply component only: no reaction yet

        # 3. react to the question: hover it in the channel, the bar's "Add reaction", then the emoji
        def add_reaction_buttons():
            return set(_elements(env, lambda t, n, _: t == "push-button" and n == "Add reaction"))

        question = min(_elements(env, lambda t, n, x: P["question"] in (n, x)))  # the channel's copy (left)
        idle = add_reaction_buttons()
        env.gui_input(MoveTo(x=question[0], y=question[1]))
        deadline = time.monotonic() + 30
        while not (hovered := add_reaction_buttons() - idle) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert hovered, "hovering the question showed no action bar"
        button = min(hovered, key=lambda xy: abs(xy[1] - question[1]))
        env.gui_input(Click(x=button[0], y=button[1]))
        emoji = _wait_for(env, lambda t, n, _: n == f"React with {P['reaction']}", "the reaction picker")[0]
        env.gui_input(Click(x=emoji[0], y=emoji[1]))

        def reacted(go):
            me = go["current_state"]["current_user"]
            return me in go["current_state"]["messages"][P["target"]]["reactions"].get(P["reaction"], [])

        _wait_hub(web_provider, env, "chat", reacted, "the reaction")
        assert _reward(env, bundle) == "REWARD: 1.0"
        # OSWorld's evaluator runs reward.py the same way (postconfig upload, then vm_command_line).
        env.client.upload("/home/user/reward.py", (bundle / "reward.py").read_bytes())
        graded = env.client.execute(["python3", "/home/user/reward.py"], timeout_s=120)
        assert graded.output.strip().splitlines()[-1] == "REWARD: 1.0"
        save_screenshot(env, "chat")  # var/screenshots/desktop-chat.png

        # 4. reset: a fresh desktop whose hub session is back at the state the agent started from
        # (the diff ignores the volatile read markers; the state itself is compared in full)
        env.reset(reopen=True)
        go = _go(web_provider, env, "chat")
        assert go["state_diff"] == {} and go["current_state"] == start
        assert _reward(env, bundle) == "REWARD: 0.0"
        titles = env.window_titles()
        assert len(titles) == 1 and titles[0].endswith(" - Team Chat - Chromium"), titles
    finally:
        env.close()


@pytest.mark.slow
def test_web_scripts_run_unchanged_and_every_reset_restores_the_session(web_provider, families, tmp_path):
    bundle = export_bundle(families, "chat.channel_kickoff", 2, tmp_path / "final")
    env = _provision(web_provider, bundle)
    other = _provision(web_provider, bundle)
    try:
        assert re.fullmatch(r"[0-9a-f]{32}", env.sid) and env.sid != other.sid  # random, never a role
        probe = env.run_script(
            "import os; print(os.environ['CUAGYM_HUB_URL'], os.environ['CUAGYM_SID'])", name="probe.py"
        )
        assert probe.stdout.split() == ["http://127.0.0.1:8400", env.sid]
        env.setup_from_config(bundle / "config.json", open_documents=False, timeout_s=240)
        env.mark_initial()
        baseline = _go(web_provider, env, "chat")["initial_state"]
        for _ in range(2):  # two episodes: each one starts from the same initial state
            patched = env.run_script((bundle / "golden_patch.py").read_text(), name="golden_patch.py")
            assert patched.ok, patched.stderr
            assert _reward(env, bundle) == "REWARD: 1.0"
            assert _go(web_provider, other, "chat")["state_diff"] == {}  # the other env's session is its own
            env.reset()
            go = _go(web_provider, env, "chat")
            assert go["state_diff"] == {} and go["initial_state"] == baseline
            assert _reward(env, bundle) == "REWARD: 0.0"
        assert env.state_view().app_state["chat"]["initial_state"] == baseline
    finally:
        env.close()
        other.close()


class _HostServer:
    """A TCP server on the host's loopback that records every connection it gets."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("0.0.0.0", 0))
        self.port = self.sock.getsockname()[1]
        self.hosts = sorted({"127.0.0.1", socket.gethostbyname(socket.gethostname())})
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>host-secret-page</p>")
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.mark.slow
def test_the_browser_reaches_the_hub_route_and_no_host_port(web_provider, families, tmp_path):
    bundle = export_bundle(families, "chat.thread_reply_react", 1, tmp_path / "final")
    env = _provision(web_provider, bundle)
    server = _HostServer()
    try:
        env.setup_from_config(bundle / "config.json", timeout_s=240)
        # Chromium itself, in the same sandbox (headless, so it prints the page it got).
        flags = [f for f in CHROMIUM_FLAGS if not f.startswith(("--user-data-dir", "--kiosk"))]

        def dump(url: str) -> str:
            argv = [CHROMIUM, *flags, "--user-data-dir=/tmp/probe", "--headless", "--dump-dom", url]
            return env.client.execute(argv, timeout_s=90).output

        # The page the route served (the app's script may or may not have retitled it by the dump).
        page = dump(env.web_app_url("chat"))
        assert '<div id="app" class="chat-app">' in page and "Team Chat</title>" in page, page[:400]
        for host in server.hosts:
            assert "host-secret-page" not in dump(f"http://{host}:{server.port}/")
        assert server.connections == 0
        # Python in the guest: every host port but the route is refused, the route itself works.
        targets = [(host, server.port) for host in server.hosts] + [("127.0.0.1", 8400)]
        probe = env.run_script(
            "import socket\n"
            f"for host, port in {targets!r}:\n"
            "    try:\n"
            "        socket.create_connection((host, port), timeout=5).close()\n"
            "        print(host, port, 'open')\n"
            "    except OSError:\n"
            "        print(host, port, 'closed')\n",
            name="probe.py",
        )
        expected = [f"{host} {server.port} closed" for host in server.hosts] + ["127.0.0.1 8400 open"]
        assert probe.stdout.splitlines() == expected
        assert server.connections == 0
    finally:
        server.close()
        env.close()


@pytest.mark.slow
def test_a_cross_app_bundle_opens_chromium_and_calc(web_provider, families, tmp_path):
    bundle = export_bundle(families, "store.picking_list", 1, tmp_path / "final")
    env = _provision(web_provider, bundle)
    try:
        opened = env.setup_from_config(bundle / "config.json", timeout_s=240)
        assert opened[0] == env.web_app_url("store") and opened[1].endswith(".xlsx"), opened
        titles = env.window_titles()
        browser = next(t for t in titles if t.endswith(" Store Admin - Chromium"))
        calc = next(t for t in titles if t.endswith(" - LibreOffice Calc"))

        def active() -> str:
            return env.client.execute(["xdotool", "getactivewindow", "getwindowname"]).output.strip()

        assert active() == calc  # the document opened last, on top of the full-screen browser
        env.gui_input(KeyPress(keys=["alt", "tab"]))  # no taskbar: alt+tab switches apps
        deadline = time.monotonic() + 10
        while active() != browser and time.monotonic() < deadline:
            time.sleep(0.2)
        assert active() == browser
        save_screenshot(env, "store-calc")
        assert _reward(env, bundle) == "REWARD: 0.0"
    finally:
        env.close()


@pytest.mark.slow
def test_open_web_app_refuses_an_app_the_desktop_was_not_given(web_provider):
    env = web_provider.provision("plain", EnvRole.DEBUG)
    try:
        with pytest.raises(DesktopError, match="not a web app"):
            env.open_web_app("chat")
    finally:
        env.close()
