"""A session can never be broken: a write the hub cannot store is refused before anything changes, a
write that fails half way (a bug, a full disk) changes nothing either, the connection that saw the
error stays usable, and a stored row the hub cannot serve is dropped instead of answering 500
forever (across restarts too)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

import infra.hub.store as store_module
from infra.hub import HubSettings
from infra.hub.diff import nesting_depth
from infra.hub.persist import SessionDB
from infra.hub.settings import MAX_STORABLE_DEPTH
from tests.hub.conftest import HubProcess
from tests.hub.threaded import ThreadedHub, local_port

DEFAULT_DEPTH = HubSettings.model_fields["max_state_depth"].default


def new_sid() -> str:
    return str(uuid.uuid4())


def dict_chain(containers: int, leaf: Any = 1) -> Any:
    """`containers` nested objects around `leaf`: {"k": {"k": ... leaf}}."""
    value = leaf
    for _ in range(containers):
        value = {"k": value}
    return value


def list_chain(containers: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(containers):
        value = [value]
    return value


def raw_chain(containers: int) -> bytes:
    # Built as text: orjson itself refuses to write what is deeper than 254.
    return b'{"k":' * containers + b"1" + b"}" * containers


def row(data_dir, app: str, sid: str) -> tuple | None:
    with sqlite3.connect(data_dir / "sessions.sqlite3") as con:
        return con.execute(
            "SELECT baseline, current FROM sessions WHERE app = ? AND sid = ?", (app, sid)
        ).fetchone()


def snapshot(client: httpx.Client, base: str, app: str, sid: str) -> tuple[dict, dict]:
    go = client.get(f"{base}/{app}/go", params={"sid": sid})
    state = client.get(f"{base}/{app}/state", params={"sid": sid})
    assert go.status_code == 200 and state.status_code == 200, (go.text, state.text)
    return go.json(), state.json()


def seed_session(client: httpx.Client, base: str, app: str, sid: str) -> None:
    """A baseline that differs from the defaults and a current that differs from the baseline."""
    url = f"{base}/{app}/post"
    assert (
        client.post(
            url, params={"sid": sid}, json={"action": "set", "state": {"extra": {"v": 1}}}
        ).status_code
        == 200
    )
    edit = {"action": "set_current", "merge": True, "state": {"extra": {"v": 2}}}
    assert client.post(url, params={"sid": sid}, json=edit).status_code == 200


# ---- states too deep to store are refused up front --------------------------------------------------


@pytest.mark.parametrize("depth", [DEFAULT_DEPTH + 1, 253, 300])
@pytest.mark.parametrize("action, merge", [("set", False), ("set_current", False), ("set_current", True)])
def test_too_deep_state_is_refused_and_changes_nothing(http, hub, action, merge, depth):
    sid = new_sid()
    seed_session(http, hub.base, "chat", sid)
    before, stored_before = snapshot(http, hub.base, "chat", sid), row(hub.data_dir, "chat", sid)
    state = before[0]["current_state"] | {"extra": dict_chain(depth - 1)}  # `depth` containers in all
    response = http.post(
        hub.url("chat", "post", sid), json={"action": action, "merge": merge, "state": state}
    )
    assert response.status_code == 422, response.text
    body = response.json()
    assert set(body) == {"error", "hint"} and "CUAGYM_HUB_MAX_STATE_DEPTH" in body["hint"]
    assert snapshot(http, hub.base, "chat", sid) == before
    assert row(hub.data_dir, "chat", sid) == stored_before
    assert http.post(hub.url("chat", "post", sid), json={"action": "reset"}).status_code == 200
    assert http.get(hub.url("chat", "go", sid)).json()["current_state"]["extra"] == {"v": 1}


def test_state_at_the_default_depth_limit_is_accepted(http, hub):
    sid = new_sid()
    state = {"extra": dict_chain(DEFAULT_DEPTH - 1, "leaf")}  # the state itself is the last level
    edit = {"action": "set_current", "merge": True, "state": state}
    assert http.post(hub.url("chat", "post", sid), json=edit).status_code == 200
    assert http.get(hub.url("chat", "go", sid)).json()["state_diff"] == {
        "extra": {"old": None, "new": state["extra"]}
    }


@pytest.mark.parametrize("chain", [dict_chain, list_chain], ids=["objects", "arrays"])
def test_go_diffs_states_at_the_highest_depth_the_settings_allow(tmp_path, chain):
    # Objects are recursed by the diff, arrays compared as wholes: both must reach the bottom.
    settings = HubSettings(apps=["chat"], data_dir=tmp_path, max_state_depth=MAX_STORABLE_DEPTH)
    before, after = chain(MAX_STORABLE_DEPTH - 1, "old"), chain(MAX_STORABLE_DEPTH - 1, "new")
    sid = new_sid()
    with ThreadedHub(settings) as base, httpx.Client(base_url=base, timeout=30) as client:
        setup = {"action": "set", "state": {"extra": before}}
        assert client.post("/chat/post", params={"sid": sid}, json=setup).status_code == 200
        edit = {"action": "set_current", "merge": True, "state": {"extra": after}}
        assert client.post("/chat/post", params={"sid": sid}, json=edit).status_code == 200
        go = client.get("/chat/go", params={"sid": sid})
        assert go.status_code == 200, go.text
        diff = go.json()["state_diff"]
        if chain is dict_chain:
            assert diff == {"extra" + ".k" * (MAX_STORABLE_DEPTH - 1): {"old": "old", "new": "new"}}
        else:
            assert diff == {"extra": {"old": before, "new": after}}
        too_deep = {"action": "set", "state": {"extra": chain(MAX_STORABLE_DEPTH)}}
        assert client.post("/chat/post", params={"sid": sid}, json=too_deep).status_code == 422
    with (
        ThreadedHub(settings) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):  # read back from disk
        assert client.get("/chat/go", params={"sid": sid}).json() == go.json()


def test_max_state_depth_cannot_exceed_what_the_hub_can_serve(monkeypatch, tmp_path):
    with pytest.raises(ValidationError, match="max_state_depth"):
        HubSettings(data_dir=tmp_path, max_state_depth=MAX_STORABLE_DEPTH + 1)
    monkeypatch.setenv("CUAGYM_HUB_MAX_STATE_DEPTH", "32")
    assert HubSettings(data_dir=tmp_path).max_state_depth == 32


def test_nesting_depth_measures_any_input_without_recursion():
    assert (
        nesting_depth("x", 5) == 0
        and nesting_depth({}, 5) == 1
        and nesting_depth({"a": [1, {"b": []}]}, 5) == 4
    )
    assert nesting_depth(list_chain(100_000), 64) == 65  # a recursive walk would overflow the stack


# ---- a write that fails half way changes nothing --------------------------------------------------


def fail_once(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[str]:
    """Make `owner.name` raise on its next call only (a disk error, or any bug, at that step)."""
    original, calls = getattr(owner, name), []

    def failing(*args: Any, **kwargs: Any) -> Any:
        if not calls:
            calls.append(name)
            raise sqlite3.OperationalError("disk I/O error (injected by the test)")
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, failing)
    return calls


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "set", "state": {"extra": {"v": 9}}},
        {"action": "set_current", "state": {"extra": {"v": 9}}, "merge": True},
        {"action": "reset"},
    ],
    ids=lambda p: p["action"],
)
def test_a_failed_write_changes_nothing_and_keeps_the_connection(monkeypatch, tmp_path, payload):
    settings = HubSettings(apps=["chat"], data_dir=tmp_path)
    sid = new_sid()
    with ThreadedHub(settings) as base, httpx.Client(base_url=base) as client:
        seed_session(client, base, "chat", sid)
        before = snapshot(client, base, "chat", sid)
        calls = fail_once(monkeypatch, SessionDB, "save")
        failed = client.post("/chat/post", params={"sid": sid}, json=payload)
        assert calls and failed.status_code == 500, failed.text
        assert set(failed.json()) == {"error", "hint"}
        # The same keep-alive connection carries the next requests, and they see the old state.
        go = client.get("/chat/go", params={"sid": sid})
        assert local_port(go) == local_port(failed)
        assert snapshot(client, base, "chat", sid) == before
        assert client.post("/chat/post", params={"sid": sid}, json={"action": "reset"}).status_code == 200
        assert client.get("/chat/go", params={"sid": sid}).json()["current_state"]["extra"] == {"v": 1}
    with ThreadedHub(settings) as base, httpx.Client(base_url=base) as client:  # nothing half-written on disk
        assert snapshot(client, base, "chat", sid)[0]["current_state"]["extra"] == {"v": 1}


def test_a_failed_diff_does_not_stick_to_the_session(monkeypatch, tmp_path):
    sid = new_sid()
    with (
        ThreadedHub(HubSettings(apps=["chat"], data_dir=tmp_path)) as base,
        httpx.Client(base_url=base) as client,
    ):
        seed_session(client, base, "chat", sid)
        fail_once(monkeypatch, store_module, "state_diff")
        failed = client.get("/chat/go", params={"sid": sid})
        assert failed.status_code == 500
        go = client.get("/chat/go", params={"sid": sid})
        assert go.status_code == 200 and local_port(go) == local_port(failed)
        assert go.json()["state_diff"] == {"extra.v": {"old": 1, "new": 2}}


# ---- rows the hub cannot serve ---------------------------------------------------------------------


def test_a_refused_write_leaves_the_stored_session_for_the_next_hub(tmp_path, http):
    server = HubProcess(tmp_path / "data").start()
    sid = new_sid()
    try:
        seed_session(http, server.base, "mail", sid)
        before = snapshot(http, server.base, "mail", sid)
        deep = {"action": "set", "state": {"extra": dict_chain(300)}}
        assert http.post(server.url("mail", "post", sid), json=deep).status_code == 422
    finally:
        server.stop()
    server.start()
    try:
        assert snapshot(http, server.base, "mail", sid) == before
    finally:
        server.stop()


UNUSABLE_ROWS = {
    # What the hub wrote before states were bounded: orjson could write it, /go could not.
    "too-deep-to-serve": (None, raw_chain(253)),
    "deeper-than-orjson-writes": (raw_chain(300), None),
    "not-an-object": (None, b"[1, 2]"),
    "not-json": (b"{not json", None),
}


def test_unusable_stored_rows_start_afresh_instead_of_failing_forever(tmp_path, http):
    server = HubProcess(tmp_path / "data").start()
    good = new_sid()
    try:
        seed_session(http, server.base, "chat", good)
        kept = snapshot(http, server.base, "chat", good)
    finally:
        server.stop()
    with sqlite3.connect(server.data_dir / "sessions.sqlite3") as con:
        for sid, (baseline, current) in UNUSABLE_ROWS.items():
            con.execute(
                "INSERT INTO sessions (app, sid, baseline, current, touched) "
                "VALUES ('chat', ?, ?, ?, strftime('%s','now'))",
                (sid, baseline, current),
            )
    server.start()
    try:
        defaults = http.get(server.url("chat", "go", new_sid())).json()
        for sid in UNUSABLE_ROWS:
            go, state = snapshot(http, server.base, "chat", sid)
            assert go == defaults and state == {"stored_state": None, "has_custom_state": False, "sid": sid}
            assert http.post(server.url("chat", "post", sid), json={"action": "reset"}).status_code == 200
            assert row(server.data_dir, "chat", sid) == (None, None)
        assert snapshot(http, server.base, "chat", good) == kept
        assert "unusable stored state" in server.log.read_text()
    finally:
        server.stop()


def test_rows_written_within_the_hard_bound_survive_a_lower_setting(tmp_path, http):
    # Lowering max_state_depth limits new writes; it must not throw away sessions that still work.
    data = tmp_path / "data"
    state = {"extra": dict_chain(DEFAULT_DEPTH + 10)}
    server = HubProcess(data, max_state_depth=MAX_STORABLE_DEPTH).start()
    sid = new_sid()
    try:
        assert (
            http.post(server.url("chat", "post", sid), json={"action": "set", "state": state}).status_code
            == 200
        )
    finally:
        server.stop()
    server = HubProcess(data).start()
    try:
        assert http.get(server.url("chat", "go", sid)).json()["current_state"]["extra"] == state["extra"]
    finally:
        server.stop()
