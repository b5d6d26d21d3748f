"""What CUA-Gym-Hub clients expect of a mock app's state API, checked against our four apps over real
HTTP. The cases follow CUA-Gym-Hub's black-box state-contract suite
(github.com/jayl940712/CUA-Gym-Hub, shared/test-webarena-state-contract.py): all nine of its API
cases hold as it states them, on every app, in the hub's default (compatibility) mode. Where our
hub adds to them or differs on purpose (the `strict` schema check, limits), the test asserts our
behaviour and infra/hub/README.md ("Compatibility with CUA-Gym-Hub clients") says why."""

from __future__ import annotations

import copy
import http.client
import json
import socket
import time
import uuid
from typing import Any

import httpx
import pytest

from infra.hub.settings import ALL_APPS

PROBE = "__webarena_state_contract_probe__"  # the key CUA-Gym-Hub's suite plants in states
# A top-level field of each app's schema, and a value of the wrong type for it.
SCHEMA_BREAKERS = {"chat": "workspace", "tracker": "projects", "store": "store", "mail": "folders"}


def schema_breaker(app: str) -> str:
    """A top-level key of `app` that must hold an object: the hand-written apps' above, an engine
    app's user entity."""
    from infra.hub.engine import app_folder, load_definition

    if app in SCHEMA_BREAKERS:
        return SCHEMA_BREAKERS[app]
    return load_definition(app_folder(app) / "definition.yaml").people


def new_sid(tag: str = "") -> str:
    return f"contract_{uuid.uuid4().hex}{tag}"


class AppClient:
    """The state API of one app, seen the way a CUA-Gym-Hub client sees it: every successful reply
    is a JSON object with a JSON content type, and the envelope invariants hold on every call."""

    def __init__(self, http: httpx.Client, base: str, app: str) -> None:
        self.http, self.base, self.app = http, f"{base}/{app}", app

    def json(self, response: httpx.Response) -> dict[str, Any]:
        assert response.status_code == 200, response.text
        assert "json" in response.headers["content-type"]
        body = response.json()
        assert isinstance(body, dict)
        return body

    def post(self, sid: str, action: str, state: dict | None = None) -> dict[str, Any]:
        payload = {"action": action} if state is None else {"action": action, "state": state}
        body = self.json(self.http.post(f"{self.base}/post", params={"sid": sid}, json=payload))
        assert body["success"] is True and body["ok"] is True  # theirs and ours
        return body

    def state(self, sid: str) -> dict[str, Any]:
        body = self.json(self.http.get(f"{self.base}/state", params={"sid": sid}))
        assert type(body["has_custom_state"]) is bool and body["sid"] == sid
        # null exactly when nothing was set: clients test `stored_state is None` for "never set".
        assert (body["stored_state"] is not None) == body["has_custom_state"]
        return body

    def go(self, sid: str) -> dict[str, Any]:
        body = self.json(self.http.get(f"{self.base}/go", params={"sid": sid}))
        assert all(isinstance(body[key], dict) for key in ("initial_state", "current_state", "state_diff"))
        return body

    def status(self, method: str, endpoint: str, sid: str, **kwargs: Any) -> int:
        return self.http.request(method, f"{self.base}/{endpoint}", params={"sid": sid}, **kwargs).status_code

    def upload(self, sid: str, filename: str, content: bytes) -> dict[str, Any]:
        # Hand-built like a plain client would send it: one part, octet-stream, no library help.
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {"content-type": f"multipart/form-data; boundary={boundary}"}
        reply = self.json(
            self.http.post(f"{self.base}/upload", params={"sid": sid}, content=body, headers=headers)
        )
        assert reply["success"] is True and isinstance(reply["files"], list) and len(reply["files"]) == 1
        return reply["files"][0]

    def download(self, sid: str, stored_name: str) -> httpx.Response:
        return self.http.get(f"{self.base}/files/{sid}/{stored_name}")


@pytest.fixture(params=ALL_APPS)
def api(request, http, hub) -> AppClient:
    return AppClient(http, hub.base, request.param)


def probe(state: dict[str, Any]) -> dict[str, Any]:
    assert isinstance(state.get(PROBE), dict), f"probe missing from {sorted(state)}"
    return state[PROBE]


def assert_probe_changed(diff: dict[str, Any], old: int | None, new: int) -> None:
    """The probe's change as CUA-Gym-Hub reads it: the whole key (added: old null) or its version path."""
    if PROBE in diff:
        entry = diff[PROBE]
        assert (entry["old"] is None) if old is None else (entry["old"]["version"] == old)
        assert entry["new"]["version"] == new
    else:
        assert diff[f"{PROBE}.version"] == {"old": old, "new": new}


# ---- cases that hold as CUA-Gym-Hub states them -----------------------------------------------------


def test_never_set_sid_has_null_stored_state_and_an_empty_diff(api):
    sid = new_sid()
    assert api.state(sid) == {"stored_state": None, "has_custom_state": False, "sid": sid}
    go = api.go(sid)
    assert go["initial_state"] == go["current_state"] and go["state_diff"] == {}


@pytest.mark.parametrize("sid", ["", "_default", "a/b"])
def test_invalid_and_reserved_sids_are_400(api, sid):
    # `_default` is CUA-Gym-Hub's sid-less session; it is reserved here too.
    assert api.status("GET", "state", sid) == 400


def test_set_re_set_set_current_and_reset(api):
    sid = new_sid()
    api.post(sid, "set", {PROBE: {"version": 1, "kind": "first-set"}})
    go, stored = api.go(sid), api.state(sid)["stored_state"]
    assert stored == go["current_state"] == go["initial_state"] and go["state_diff"] == {}
    assert probe(go["initial_state"])["version"] == 1
    first_baseline = go["initial_state"]

    api.post(sid, "set", {PROBE: {"version": 2, "kind": "re-set"}})
    go = api.go(sid)
    baseline = go["initial_state"]
    assert baseline == go["current_state"] and go["state_diff"] == {}
    assert probe(baseline)["version"] == 2 and baseline != first_baseline

    edited = copy.deepcopy(baseline) | {PROBE: {"version": 3, "kind": "set-current"}}
    api.post(sid, "set_current", edited)
    go = api.go(sid)
    assert go["initial_state"] == baseline and go["current_state"] == edited
    assert api.state(sid)["stored_state"] == edited
    assert_probe_changed(go["state_diff"], 2, 3)

    api.post(sid, "reset")
    go = api.go(sid)
    assert go["initial_state"] == go["current_state"] == baseline and go["state_diff"] == {}
    assert api.state(sid)["stored_state"] == baseline


def test_never_seeded_set_current_is_stored_as_sent_and_reset_clears_it(api):
    # Only the probe, no app field at all: compatibility mode stores it as sent.
    sid = new_sid()
    mutation = {PROBE: {"version": 1, "kind": "never-seeded"}}
    api.post(sid, "set_current", mutation)
    go = api.go(sid)
    assert api.state(sid)["stored_state"] == go["current_state"] == mutation
    assert go["initial_state"] != mutation  # the edit did not become the baseline
    assert_probe_changed(go["state_diff"], None, 1)
    api.post(sid, "reset")
    assert api.state(sid)["has_custom_state"] is False


def test_set_current_of_a_whole_state_on_a_never_set_sid_is_observable(api):
    sid = new_sid()
    edited = api.go(sid)["current_state"] | {PROBE: {"version": 1, "kind": "never-seeded"}}
    api.post(sid, "set_current", edited)
    go = api.go(sid)
    assert api.state(sid)["stored_state"] == go["current_state"] == edited
    assert go["initial_state"] != edited  # the edit did not become the baseline
    assert_probe_changed(go["state_diff"], None, 1)  # an added key: old is null
    api.post(sid, "reset")
    assert api.state(sid)["has_custom_state"] is False  # no baseline: reset leaves nothing behind


def test_two_sids_are_isolated(api):
    a, b = new_sid("_a"), new_sid("_b")
    api.post(a, "set", {PROBE: {"owner": "A"}})
    api.post(b, "set", {PROBE: {"owner": "B"}})
    go_a, go_b = api.go(a), api.go(b)
    assert probe(go_a["current_state"])["owner"] == "A" and probe(go_b["current_state"])["owner"] == "B"
    assert go_a["initial_state"] == go_a["current_state"] and go_b["initial_state"] == go_b["current_state"]
    assert api.state(a)["stored_state"] == go_a["current_state"]


def post_in_two_writes(base: str, path: str, body: bytes, split_at: int) -> tuple[int, bytes]:
    """POST `body` with its bytes sent as two TCP segments, split at `split_at`."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        sock.sendall(head.encode() + body[:split_at])
        time.sleep(0.05)  # long enough for the server to read the first part on its own
        sock.sendall(body[split_at:])
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, response.read()


def test_large_utf8_body_split_inside_a_character_round_trips(api, hub):
    sid = new_sid()
    line = "Zażółć gęślą jaźń — 東京 — naïve café — 🌍🚀\n"
    text = line * (256 * 1024 // len(line.encode()) + 2)
    body = json.dumps({"action": "set", "state": {PROBE: {"value": text}}}, ensure_ascii=False).encode()
    globe = body.index("🌍".encode(), len(body) // 2)
    status, reply = post_in_two_writes(hub.base, f"/{api.app}/post?sid={sid}", body, globe + 2)
    assert status == 200, reply[:300]
    go = api.go(sid)
    assert probe(go["current_state"])["value"] == text
    assert (
        go["initial_state"] == go["current_state"] == api.state(sid)["stored_state"]
        and go["state_diff"] == {}
    )


def test_invalid_utf8_body_is_400(api):
    body = b'{"action":"set","state":{"value":"\xff"}}'
    assert (
        api.status("POST", "post", new_sid(), content=body, headers={"content-type": "application/json"})
        == 400
    )


@pytest.mark.parametrize("body", [b"{", b"not json", b"[]", b'{"action": "set", "state": ]}'])
def test_bad_json_is_4xx(api, body):
    status = api.status("POST", "post", new_sid(), content=body, headers={"content-type": "application/json"})
    assert 400 <= status < 500


def test_unknown_action_is_400(api):
    assert api.status("POST", "post", new_sid(), json={"action": "delete"}) == 400


def test_top_level_deletion_is_reported_with_new_null(api):
    sid, gone = new_sid(), "__contract_deleted_probe__"
    api.post(sid, "set", {PROBE: {"kind": "deletion"}, gone: "must-disappear"})
    current = api.go(sid)["current_state"]
    del current[gone]
    api.post(sid, "set_current", current)
    go = api.go(sid)
    assert gone in go["initial_state"] and gone not in go["current_state"]
    assert go["state_diff"] == {gone: {"old": "must-disappear", "new": None}}
    api.post(sid, "reset")
    assert api.go(sid)["current_state"][gone] == "must-disappear"


def test_uploads_are_deterministic_readable_by_their_sid_only_and_survive_reset(api):
    owner, other = new_sid("_a"), new_sid("_b")
    content = b"deterministic upload\n"
    info = api.upload(owner, "contract-fixture.txt", content)
    assert isinstance(info["stored_name"], str) and info["stored_name"]
    assert api.upload(owner, "contract-fixture.txt", content)["stored_name"] == info["stored_name"]
    download = api.download(owner, info["stored_name"])
    assert download.status_code == 200 and download.content == content
    assert api.download(other, info["stored_name"]).status_code == 404
    api.post(owner, "reset")  # reset restores state; it does not delete the session's files
    assert api.download(owner, info["stored_name"]).content == content


# ---- cases where our hub differs on purpose (infra/hub/README.md says why) ------------------------


def test_sids_longer_than_128_characters_are_400(api):
    assert api.status("GET", "state", "a" * 128) == 200
    assert api.status("GET", "state", "a" * 129) == 400


def test_missing_sid_is_400(api):
    # CUA-Gym-Hub falls back to one shared sid-less session; here that would be a channel between envs.
    assert api.http.get(f"{api.base}/state").status_code == 400


def test_strict_refuses_a_partial_state_with_422(api):
    sid = new_sid()
    response = api.http.post(
        f"{api.base}/post",
        params={"sid": sid},
        json={"action": "set_current", "state": {PROBE: {"version": 1}}, "strict": True},
    )
    assert response.status_code == 422 and set(response.json()) == {"error", "hint"}
    assert api.state(sid)["stored_state"] is None


def test_strict_refuses_a_state_breaking_the_app_schema_with_422(api):
    sid = new_sid()
    breaking = {schema_breaker(api.app): "not an object"}
    write = {"action": "set", "state": breaking}
    assert api.status("POST", "post", sid, json=write | {"strict": True}) == 422
    assert api.state(sid)["has_custom_state"] is False
    assert api.status("POST", "post", sid, json=write) == 200  # compatibility mode stores it


def test_states_nested_deeper_than_the_limit_are_422(api):
    deep: Any = 1
    for _ in range(100):  # past the default max_state_depth (64)
        deep = {"k": deep}
    assert api.status("POST", "post", new_sid(), json={"action": "set", "state": {PROBE: deep}}) == 422


def test_set_is_merged_with_the_app_defaults(api):
    sid = new_sid()
    defaults = api.go(sid)["initial_state"]
    api.post(sid, "set", {PROBE: {"version": 1}})
    assert api.go(sid)["initial_state"] == defaults | {PROBE: {"version": 1}}


def test_missing_action_is_400(api):
    assert api.status("POST", "post", new_sid(), json={"state": {PROBE: {}}}) == 400


def test_uploads_of_different_bytes_under_one_name_never_overwrite_each_other(api):
    sid = new_sid()
    first = api.upload(sid, "contract-fixture.txt", b"first bytes")
    second = api.upload(sid, "contract-fixture.txt", b"other bytes")
    assert first["stored_name"] != second["stored_name"]
    assert first["original_name"] == second["original_name"] == "contract-fixture.txt"
    assert api.download(sid, first["stored_name"]).content == b"first bytes"
    assert api.download(sid, second["stored_name"]).content == b"other bytes"
