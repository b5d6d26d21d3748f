"""Who may write a session and on what: JSON bodies only, no cross-origin browser writes, and
versions (`ETag` / `If-Match`) so concurrent read-modify-write clients lose no update."""

from __future__ import annotations

import threading
import uuid

import httpx
import pytest

PROBE = {"action": "set_current", "state": {"probe": 1}}


def new_sid() -> str:
    return f"guard_{uuid.uuid4().hex}"


def stored(http, hub, sid):
    return http.get(hub.url("chat", "state", sid)).json()["stored_state"]


def assert_error(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "hint"} and body["error"] and body["hint"]
    return body


# What a page of any origin can send without a CORS preflight (text/plain, a form), and no type.
NOT_JSON = [
    ("text/plain", b'{"action": "reset"}'),
    ("text/plain;charset=UTF-8", b'{"action": "reset"}'),
    ("application/x-www-form-urlencoded", b'{"action": "reset"}'),
    (
        "multipart/form-data; boundary=x",
        b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    ),
    (None, b'{"action": "reset"}'),
]


@pytest.mark.parametrize(("content_type", "body"), NOT_JSON)
def test_post_without_a_json_body_is_415_and_changes_nothing(http, hub, content_type, body):
    sid = new_sid()
    assert http.post(hub.url("chat", "post", sid), json=PROBE).status_code == 200
    headers = {} if content_type is None else {"content-type": content_type}
    error = assert_error(http.post(hub.url("chat", "post", sid), content=body, headers=headers), 415)
    assert "application/json" in error["error"]
    assert stored(http, hub, sid) == {"probe": 1}  # the reset did not happen


def test_json_writes_still_work_with_a_charset(http, hub):
    sid = new_sid()
    headers = {"content-type": "Application/JSON; charset=utf-8"}
    response = http.post(
        hub.url("chat", "post", sid), content=b'{"action":"set_current","state":{"a":1}}', headers=headers
    )
    assert response.status_code == 200 and response.json()["success"] is True
    assert stored(http, hub, sid) == {"a": 1}


@pytest.mark.parametrize("origin", ["http://evil.test", "http://127.0.0.1:1", "null"])
def test_writes_from_a_page_of_another_origin_are_403(http, hub, origin):
    sid = new_sid()
    assert http.post(hub.url("chat", "post", sid), json=PROBE).status_code == 200
    headers = {"origin": origin}
    assert_error(http.post(hub.url("chat", "post", sid), json={"action": "reset"}, headers=headers), 403)
    files = {"file": ("x.txt", b"x", "text/plain")}
    assert_error(http.post(hub.url("chat", "upload", sid), files=files, headers=headers), 403)
    assert stored(http, hub, sid) == {"probe": 1}


def test_writes_from_the_apps_own_pages_pass(http, hub):
    sid = new_sid()
    response = http.post(hub.url("chat", "post", sid), json=PROBE, headers={"origin": hub.base})
    assert response.status_code == 200, response.text


def test_reads_and_writes_carry_the_version_as_etag(http, hub):
    sid = new_sid()
    assert http.get(hub.url("chat", "state", sid)).headers["etag"] == '"0"'
    reply = http.post(hub.url("chat", "post", sid), json=PROBE)
    assert reply.headers["etag"] == '"1"' and reply.json()["version"] == 1
    assert http.get(hub.url("chat", "go", sid)).headers["etag"] == '"1"'
    assert http.post(hub.url("chat", "post", sid), json={"action": "reset"}).json()["version"] == 2
    assert http.get(hub.url("chat", "state", sid)).headers["etag"] == '"2"'


def test_if_match_with_a_stale_version_is_412_and_changes_nothing(http, hub):
    sid = new_sid()
    assert http.post(hub.url("chat", "post", sid), json=PROBE).status_code == 200
    etag = http.get(hub.url("chat", "state", sid)).headers["etag"]
    stale = {"if-match": '"0"'}
    change = {"action": "set_current", "state": {"probe": 2}}
    body = assert_error(http.post(hub.url("chat", "post", sid), json=change, headers=stale), 412)
    assert "version 1" in body["error"]
    assert stored(http, hub, sid) == {"probe": 1}
    for form in ("{}", "W/{}", '"7", {}', "*"):  # the current version, in each accepted form
        header = form.format(etag)
        response = http.post(hub.url("chat", "post", sid), json=change, headers={"if-match": header})
        assert response.status_code == 200, (header, response.text)
        etag = response.headers["etag"]


def add_ones(base: str, sid: str, client_id: int, count: int, *, if_match: bool, errors: list) -> None:
    """Add 1 to the shared counter `count` times by read-modify-write, retrying a refused write."""
    with httpx.Client(base_url=base, timeout=30) as client:
        done = 0
        while done < count:
            read = client.get("/chat/state", params={"sid": sid})
            state = read.json()["stored_state"]
            state = {**state, "counter": state["counter"] + 1, f"c{client_id}": done}
            headers = {"if-match": read.headers["etag"]} if if_match else {}
            write = client.post(
                "/chat/post",
                params={"sid": sid},
                json={"action": "set_current", "state": state},
                headers=headers,
            )
            if write.status_code == 200:
                done += 1
            elif write.status_code != 412:
                errors.append(write.text)
                return


def run_clients(hub, sid: str, *, if_match: bool, clients: int = 20, each: int = 5) -> int:
    barrier_errors: list[str] = []
    threads = [
        threading.Thread(
            target=add_ones,
            args=(hub.base, sid, i, each),
            kwargs={"if_match": if_match, "errors": barrier_errors},
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not barrier_errors
    with httpx.Client(base_url=hub.base, timeout=30) as client:
        return client.get("/chat/state", params={"sid": sid}).json()["stored_state"]["counter"]


def test_twenty_concurrent_read_modify_write_clients_with_if_match_lose_no_update(http, hub):
    sid = new_sid()
    assert (
        http.post(
            hub.url("chat", "post", sid), json={"action": "set_current", "state": {"counter": 0}}
        ).status_code
        == 200
    )
    assert run_clients(hub, sid, if_match=True) == 100  # 20 clients x 5 increments, every one landed
