"""The hub's state contract, checked at run time on one served app (what `cuagym hub synth-app`
requires of a definition before it accepts it).

The cases are those of CUA-Gym-Hub's black-box state-contract suite, which tests/hub/
test_cuagym_hub_contract.py asserts in full on every declared app: a never-set sid has no stored
state; bad and reserved sids are 400; set / set_current / reset with a probe key; added keys as
`old: null`; two sids isolated; invalid UTF-8 is 400; identical uploads share a stored name that
another sid cannot read; plus what the engine adds: the seed passes the strict schema check and a
state breaking it is refused with 422.

    problems = contract_problems("http://127.0.0.1:8400", definition)   # [] when it holds
"""

from __future__ import annotations

import uuid

import httpx

from infra.hub.engine.definition import AppDefinition
from infra.hub.engine.seed import default_state

PROBE = "__webarena_state_contract_probe__"


def contract_problems(base: str, definition: AppDefinition) -> list[str]:
    app = definition.name
    problems: list[str] = []
    with httpx.Client(base_url=f"{base}/{app}", timeout=15) as http:

        def post(sid: str, body: dict | bytes) -> httpx.Response:
            if isinstance(body, bytes):
                return http.post(
                    "post", params={"sid": sid}, content=body, headers={"Content-Type": "application/json"}
                )
            return http.post("post", params={"sid": sid}, json=body)

        def check(ok: bool, what: str) -> None:
            if not ok:
                problems.append(what)

        sid = f"contract-{uuid.uuid4().hex}"
        state = http.get("state", params={"sid": sid}).json()
        check(
            state.get("stored_state") is None and state.get("has_custom_state") is False,
            "a never-set sid must have stored_state null",
        )
        for bad in ("", "a/b", "_default"):
            check(http.get("go", params={"sid": bad}).status_code == 400, f"sid {bad!r} must be 400")
        written = post(sid, {"action": "set", "state": {PROBE: "initial"}})
        check(written.status_code == 200 and written.json().get("success") is True, "set must answer success")
        go = http.get("go", params={"sid": sid}).json()
        check(
            go.get("current_state", {}).get(PROBE) == "initial" and go.get("state_diff") == {},
            "after set, current holds the probe and the diff is empty",
        )
        post(
            sid,
            {"action": "set_current", "state": {**go.get("current_state", {}), PROBE: "changed", "extra": 1}},
        )
        diff = http.get("go", params={"sid": sid}).json().get("state_diff", {})
        check(diff.get(PROBE, {}).get("new") == "changed", "set_current must show in the diff")
        check(diff.get("extra") == {"old": None, "new": 1}, "an added key must show as old: null")
        post(sid, {"action": "reset"})
        check(http.get("go", params={"sid": sid}).json().get("state_diff") == {}, "reset must clear the diff")
        other = f"contract-{uuid.uuid4().hex}"
        check(
            http.get("state", params={"sid": other}).json().get("stored_state") is None,
            "sids must be isolated",
        )
        check(
            post(sid, b'{"action": "set", "state": {"x": "\xff"}}').status_code == 400,
            "invalid UTF-8 must be 400",
        )
        files = [
            http.post("upload", params={"sid": sid}, files={"file": ("a.txt", b"same bytes")})
            for _ in range(2)
        ]
        names = [r.json()["files"][0]["stored_name"] for r in files if r.status_code == 200]
        check(len(names) == 2 and names[0] == names[1], "identical uploads must share a stored name")
        if names:
            check(
                http.get(f"files/{other}/{names[0]}").status_code == 404, "another sid must not read a file"
            )
        seeded = post(
            f"contract-{uuid.uuid4().hex}",
            {"action": "set", "state": default_state(definition), "strict": True},
        )
        check(seeded.status_code == 200, f"the seed must pass the strict schema check ({seeded.text[:200]})")
        breaking = {"action": "set", "state": {definition.people: "not an object"}, "strict": True}
        check(
            post(f"contract-{uuid.uuid4().hex}", breaking).status_code == 422,
            "a state breaking the schema must be 422",
        )
    return problems
