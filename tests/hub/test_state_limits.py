"""State API edges over real HTTP: encodings, size limits, uploads and their isolation, persistence
across a restart, idle expiry, and two hubs in one process."""

from __future__ import annotations

import sqlite3
import time
import uuid

import httpx
import pytest
from fastapi.testclient import TestClient

from infra.hub import HubSettings, create_app
from tests.hub.conftest import HubProcess


def new_sid() -> str:
    return str(uuid.uuid4())


def assert_error(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error", "hint"}


def stored_sids(server: HubProcess) -> set[str]:
    with sqlite3.connect(server.data_dir / "sessions.sqlite3") as con:
        return {sid for (sid,) in con.execute("SELECT sid FROM sessions WHERE app = 'chat'")}


def test_256kb_of_utf8_round_trips(http, hub):
    sid = new_sid()
    text = ("Grüße, 東京 🚀 naïve café — ") * 9000  # multi-byte heavy, ~256 KB encoded
    assert len(text.encode()) > 256_000
    assert (
        http.post(
            hub.url("chat", "post", sid),
            json={"action": "set_current", "merge": True, "state": {"notes": {"big": text}}},
        ).status_code
        == 200
    )
    assert http.get(hub.url("chat", "state", sid)).json()["stored_state"]["notes"]["big"] == text
    assert http.get(hub.url("chat", "go", sid)).json()["state_diff"]["notes"]["new"] == {"big": text}


def test_invalid_utf8_is_400(http, hub):
    body = b'{"action": "set_current", "merge": true, "state": {"x": "\xff\xfe"}}'
    response = http.post(
        hub.url("chat", "post", new_sid()), content=body, headers={"content-type": "application/json"}
    )
    assert_error(response, 400)
    assert "UTF-8" in response.json()["error"]


def test_oversize_body_is_413(http, hub):
    big = b'{"action": "set", "state": {"x": "' + b"a" * 1_100_000 + b'"}}'  # limit is 1 MiB in this hub
    assert_error(http.post(hub.url("chat", "post", new_sid()), content=big), 413)


def test_oversize_chunked_body_is_413(http, hub):
    def chunks():  # no Content-Length: the limit must hold while the body streams
        yield b'{"action": "set", "state": {"x": "'
        for _ in range(20):
            yield b"a" * 65536
        yield b'"}}'

    response = http.post(
        hub.url("chat", "post", new_sid()), content=chunks(), headers={"content-type": "application/json"}
    )
    assert_error(response, 413)


def test_upload_is_visible_only_to_its_sid(http, hub):
    a, b = new_sid(), new_sid()
    response = http.post(
        hub.url("mail", "upload", a), files={"file": ("report.pdf", b"%PDF-1.4 test", "application/pdf")}
    )
    assert response.status_code == 200, response.text
    assert response.json()["success"] is True
    [info] = response.json()["files"]
    assert (
        info["original_name"] == "report.pdf"
        and info["size"] == 13
        and info["content_type"] == "application/pdf"
    )
    assert info["url"] == f"/mail/files/{a}/{info['stored_name']}"
    assert http.get(hub.base + info["url"]).content == b"%PDF-1.4 test"
    assert_error(http.get(f"{hub.base}/mail/files/{b}/{info['stored_name']}"), 404)  # another sid
    assert_error(http.get(f"{hub.base}/chat/files/{a}/{info['stored_name']}"), 404)  # another app
    assert http.get(hub.url("mail", "state", a)).json()["has_custom_state"] is False  # files are not state


def test_several_files_in_one_upload(http, hub):
    files = [("file", ("a.txt", b"A", "text/plain")), ("other", ("b.png", b"\x89PNG", "image/png"))]
    described = http.post(hub.url("chat", "upload", new_sid()), files=files).json()["files"]
    assert [f["original_name"] for f in described] == ["a.txt", "b.png"]
    assert len({f["stored_name"] for f in described}) == 2


@pytest.mark.parametrize(
    "name, shown",
    [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\windows\\win.ini", "win.ini"),
        ("/abs/path/évaluation.txt", "évaluation.txt"),
        ("..", "file"),
        ("bad\x01name\x7f.txt", "badname.txt"),
    ],
)
def test_traversal_in_file_names_is_harmless(http, hub, name, shown):
    sid = new_sid()
    # Built by hand: client libraries escape these names, a hostile client would not.
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="file"; filename="'
        + name.encode()
        + b'"\r\nContent-Type: text/plain\r\n\r\npayload\r\n--XyZ--\r\n'
    )
    response = http.post(
        hub.url("chat", "upload", sid),
        content=body,
        headers={"content-type": "multipart/form-data; boundary=XyZ"},
    )
    [info] = response.json()["files"]
    assert info["original_name"] == shown
    assert (
        "/" not in info["stored_name"] and "\\" not in info["stored_name"] and ".." not in info["stored_name"]
    )
    stored = hub.data_dir / "files" / "chat" / sid / info["stored_name"]
    assert stored.read_bytes() == b"payload"  # written inside the session's folder, nowhere else
    assert not (hub.data_dir / "etc").exists()


@pytest.mark.parametrize("path", ["..%2F..%2Fsessions%2Fchat", "%2e%2e", ".hidden", "no-such-file"])
def test_file_urls_cannot_escape_the_session_folder(http, hub, path):
    sid = new_sid()
    http.post(hub.url("chat", "upload", sid), files={"file": ("a.txt", b"x")})
    assert http.get(f"{hub.base}/chat/files/{sid}/{path}").status_code in (400, 404)


def test_oversize_upload_is_413(http, hub):
    response = http.post(hub.url("chat", "upload", new_sid()), files={"file": ("big.bin", b"\0" * 2_200_000)})
    assert_error(response, 413)


def test_upload_needs_multipart_with_a_file(http, hub):
    assert_error(http.post(hub.url("chat", "upload", new_sid()), json={"file": "x"}), 400)
    assert_error(http.post(hub.url("chat", "upload", new_sid()), data={"field": "no file"}), 400)


def test_state_and_uploads_survive_a_restart(tmp_path, http):
    server = HubProcess(tmp_path / "data").start()
    sid = new_sid()
    try:
        http.post(
            server.url("tracker", "post", sid),
            json={"action": "set", "state": {"projects": {"WEB": {"name": "Site"}}}},
        )
        http.post(
            server.url("tracker", "post", sid),
            json={
                "action": "set_current",
                "merge": True,
                "state": {"issues": {"WEB-3": {"status": "in_progress"}}},
            },
        )
        [info] = http.post(
            server.url("tracker", "upload", sid), files={"file": ("spec.txt", b"spec")}
        ).json()["files"]
        before = http.get(server.url("tracker", "go", sid)).json()
    finally:
        server.stop()
    server.start()  # same data dir, same port
    try:
        after = http.get(server.url("tracker", "go", sid)).json()
        assert after == before
        assert after["state_diff"] == {"issues.WEB-3.status": {"old": "todo", "new": "in_progress"}}
        assert http.get(server.base + info["url"]).content == b"spec"
    finally:
        server.stop()


@pytest.mark.slow
def test_idle_sessions_expire_after_the_ttl(tmp_path, http):
    server = HubProcess(tmp_path / "data", session_ttl_s=1.0, sweep_interval_s=0.3).start()
    try:
        idle, busy = new_sid(), new_sid()
        for sid in (idle, busy):
            http.post(
                server.url("chat", "post", sid), json={"action": "set", "state": {"workspace": {"name": sid}}}
            )
        [info] = http.post(server.url("chat", "upload", idle), files={"file": ("a.txt", b"x")}).json()[
            "files"
        ]
        for _ in range(6):  # keep `busy` alive with reads every 0.25 s
            time.sleep(0.25)
            assert http.get(server.url("chat", "state", busy)).json()["has_custom_state"] is True
        assert http.get(server.url("chat", "state", idle)).json() == {
            "stored_state": None,
            "has_custom_state": False,
            "sid": idle,
        }
        assert http.get(server.base + info["url"]).status_code == 404
        time.sleep(0.5)  # the sweeper also removes what is on disk
        assert stored_sids(server) == {busy}
        assert not (server.data_dir / "files" / "chat" / idle).exists()
    finally:
        server.stop()


def test_two_hubs_run_side_by_side_in_one_process(tmp_path):
    one = create_app(HubSettings(apps=["chat"], data_dir=tmp_path / "one"))
    two = create_app(HubSettings(apps=["chat", "mail"], data_dir=tmp_path / "two"))
    with TestClient(one) as c1, TestClient(two) as c2:
        c1.post("/chat/post?sid=s", json={"action": "set", "state": {"workspace": {"name": "One"}}})
        assert c1.get("/chat/state?sid=s").json()["has_custom_state"] is True
        assert c2.get("/chat/state?sid=s").json()["has_custom_state"] is False
        assert (
            c1.get("/mail/state?sid=s").status_code == 404 and c2.get("/mail/state?sid=s").status_code == 200
        )


def test_settings_read_the_cuagym_hub_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CUAGYM_HUB_APPS", "chat, mail")
    monkeypatch.setenv("CUAGYM_HUB_SESSION_TTL_S", "5")
    settings = HubSettings()
    assert settings.apps == ["chat", "mail"] and settings.session_ttl_s == 5 and settings.host == "127.0.0.1"


def test_unknown_app_is_a_config_error(tmp_path):
    from infra.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown hub app"):
        create_app(HubSettings(apps=["chat", "crm"], data_dir=tmp_path))
