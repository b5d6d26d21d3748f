"""Pinned routes (infra/hub/routes.py): the socket bound into an env serves that env's session and
refuses every other one with 403, whatever the client (the forwarder, a raw socket, a browser)."""

from __future__ import annotations

import textwrap
import uuid
from pathlib import Path

import httpx
import pytest

from infra.envs.base import EnvRole
from infra.envs.local import HubRoute
from infra.hub.process import HubProcess


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    base = tmp_path_factory.mktemp("pinned")
    with HubProcess(base / "data", base / "hub.sock") as process:
        yield process


def through(socket: Path) -> httpx.Client:
    # What the guest's forwarder delivers: the browser's and the scripts' requests, byte for byte.
    return httpx.Client(
        transport=httpx.HTTPTransport(uds=str(socket)), base_url="http://127.0.0.1:8400", timeout=10
    )


def assert_refused(response: httpx.Response) -> None:
    assert response.status_code == 403, response.text
    assert set(response.json()) == {"error", "hint"} and "CUAGYM_SID" in response.json()["hint"]


def test_an_envs_route_serves_its_own_session(hub):
    own = uuid.uuid4().hex
    socket = HubRoute(hub.uds, ("chat",)).pinned_socket(own)
    with through(socket) as client:
        assert (
            client.post(
                "/chat/post", params={"sid": own}, json={"action": "set_current", "state": {"a": 1}}
            ).status_code
            == 200
        )
        assert client.get("/chat/state", params={"sid": own}).json()["stored_state"] == {"a": 1}
        info = client.post("/chat/upload", params={"sid": own}, files={"file": ("a.txt", b"A")}).json()[
            "files"
        ][0]
        assert client.get(info["url"]).content == b"A"
        # The UI and its shared assets load through the route too.
        assert client.get("/chat/", params={"sid": own}).status_code == 200
        assert client.get("/_hub/static/hub.js").status_code == 200


def test_an_envs_route_refuses_every_other_session(hub):
    own = uuid.uuid4().hex
    other = own + "x"  # the oracle session of the red-team report
    with hub.client() as admin:
        upload = admin.post("/mail/upload", params={"sid": other}, files={"file": ("b.txt", b"B")})
        stored_name = upload.json()["files"][0]["stored_name"]
    socket = HubRoute(hub.uds, ("chat",)).pinned_socket(own)
    with through(socket) as client:
        assert_refused(
            client.post(
                "/chat/post", params={"sid": other}, json={"action": "set_current", "state": {"o": 1}}
            )
        )
        assert_refused(client.get("/chat/go", params={"sid": other}))
        assert_refused(client.get("/chat/state", params={"sid": other}))
        assert_refused(client.get("/chat/", params={"sid": other}))
        assert_refused(client.post("/mail/upload", params={"sid": other}, files={"file": ("c.txt", b"C")}))
        assert_refused(client.get(f"/mail/files/{other}/{stored_name}"))
        assert_refused(client.get("/store/api/orders.csv", params={"sid": other}))
        assert_refused(client.get(f"/chat/state?sid={own}&sid={other}"))  # smuggled as a second value
        assert_refused(client.get(f"/chat/state?%73id={other}"))  # or percent-encoded
        # Nor can the env open a route of its own, or read the hub's API docs.
        assert client.post("/_hub/routes", json={"sid": other}).status_code == 403
        assert client.get("/_hub/openapi.json").status_code == 403
    with hub.client() as admin:
        assert admin.get("/chat/state", params={"sid": other}).json()["stored_state"] is None  # untouched
        assert admin.get(f"/mail/files/{other}/{stored_name}").content == b"B"


def test_routes_are_one_per_session_and_close(hub):
    route = HubRoute(hub.uds, ("chat",))
    sid = uuid.uuid4().hex
    socket = route.pinned_socket(sid)
    assert route.pinned_socket(sid) == socket and route.pinned_socket(sid + "y") != socket
    with hub.client() as admin:
        assert admin.delete("/_hub/routes", params={"sid": sid}).json() == {"sid": sid, "closed": True}
    assert not socket.exists()
    with pytest.raises(httpx.TransportError), through(socket) as client:
        client.get("/chat/state", params={"sid": sid})


PROBE = textwrap.dedent("""
    import json, os, socket, requests
    hub, sid = os.environ["CUAGYM_HUB_URL"], os.environ["CUAGYM_SID"]
    own = requests.get(f"{hub}/chat/go", params={"sid": sid}, timeout=10)
    other = requests.post(f"{hub}/chat/post", params={"sid": sid + "x"}, timeout=10,
                          json={"action": "set_current", "state": {"oracle": 1}})
    # Past the forwarder, straight at the socket bound in: the pin is the hub's, not the guest's.
    raw = socket.socket(socket.AF_UNIX)
    raw.connect("/run/cuagym/hub.sock")
    raw.sendall(f"GET /chat/state?sid={sid}x HTTP/1.1\\r\\nHost: h\\r\\nConnection: close\\r\\n\\r\\n".encode())
    print(json.dumps([own.status_code, other.status_code, raw.recv(100).split()[1].decode()]))
""")


def test_a_script_in_an_env_reaches_only_its_own_session(provider, hub_route):
    with provider.provision("web.pin", EnvRole.INITIAL, apps=["chat"]) as env:
        result = env.run_script(PROBE, name="probe.py")
        assert result.ok, result.stderr
        assert result.stdout.strip().splitlines()[-1] == '[200, 403, "403"]'
        with hub_route.client() as admin:
            assert admin.get("/chat/state", params={"sid": env.sid + "x"}).json()["stored_state"] is None
