"""Black-box contract of the state API (DESIGN.md §3.3) over real HTTP: set / set_current / reset
semantics, the diff rules, session isolation, and the error shape."""

from __future__ import annotations

import uuid

import pytest

from infra.hub.settings import ALL_APPS


def new_sid() -> str:
    return str(uuid.uuid4())


def post(http, hub, app, sid, **payload):
    return http.post(hub.url(app, "post", sid), json=payload)


def go(http, hub, app, sid) -> dict:
    response = http.get(hub.url(app, "go", sid))
    assert response.status_code == 200, response.text
    return response.json()


def assert_error(response, status: int) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "hint"} and body["error"] and body["hint"]
    return body


@pytest.mark.parametrize("app", ALL_APPS)
def test_untouched_sid_reads_defaults_with_empty_diff_and_stores_nothing(http, hub, app):
    sid = new_sid()
    body = go(http, hub, app, sid)
    assert body["state_diff"] == {}
    assert body["initial_state"] == body["current_state"]
    # Never set: nothing is stored (null, not the defaults; DESIGN.md §3.3, as CUA-Gym-Hub clients expect).
    stored = http.get(hub.url(app, "state", sid)).json()
    assert stored == {"stored_state": None, "has_custom_state": False, "sid": sid}


def test_defaults_are_deterministic_across_sessions(http, hub):
    for app in ALL_APPS:
        assert (
            go(http, hub, app, new_sid())["initial_state"] == go(http, hub, app, new_sid())["initial_state"]
        )


BAD_SIDS = ["", "a/b", "a b", "ä", "x" * 129, "../etc", "a.b", "%00"]


@pytest.mark.parametrize("sid", BAD_SIDS)
@pytest.mark.parametrize("endpoint", ["go", "state"])
def test_invalid_sids_are_rejected_on_reads(http, hub, endpoint, sid):
    assert_error(http.get(f"{hub.base}/chat/{endpoint}", params={"sid": sid}), 400)


@pytest.mark.parametrize("sid", BAD_SIDS)
def test_invalid_sids_are_rejected_on_writes(http, hub, sid):
    assert_error(http.post(f"{hub.base}/chat/post", params={"sid": sid}, json={"action": "reset"}), 400)
    assert_error(
        http.post(f"{hub.base}/chat/upload", params={"sid": sid}, files={"file": ("a.txt", b"x")}), 400
    )


def test_missing_sid_is_rejected(http, hub):
    assert "sid" in assert_error(http.get(f"{hub.base}/mail/go"), 400)["hint"]


def test_sid_accepts_the_full_alphabet_up_to_128_chars(http, hub):
    assert http.get(hub.url("chat", "go", "aZ09_-" * 21 + "ab")).status_code == 200


def test_set_replaces_baseline_and_current_merged_with_defaults(http, hub):
    sid = new_sid()
    reply = post(http, hub, "chat", sid, action="set", state={"workspace": {"name": "Acme"}}).json()
    assert reply["ok"] is True and reply["success"] is True
    body = go(http, hub, "chat", sid)
    assert body["initial_state"]["workspace"] == {"name": "Acme", "domain": "northwind-labs"}  # deep-merged
    assert body["current_state"] == body["initial_state"]
    assert body["state_diff"] == {}
    assert http.get(hub.url("chat", "state", sid)).json()["has_custom_state"] is True


def test_set_again_starts_from_the_defaults_not_the_previous_set(http, hub):
    sid = new_sid()
    post(http, hub, "chat", sid, action="set", state={"workspace": {"name": "First"}, "extra": {"a": 1}})
    post(http, hub, "chat", sid, action="set_current", state={"workspace": {"name": "Edited"}}, merge=True)
    post(http, hub, "chat", sid, action="set", state={"workspace": {"name": "Second"}})
    body = go(http, hub, "chat", sid)
    assert body["initial_state"]["workspace"]["name"] == "Second"
    assert "extra" not in body["initial_state"]  # the first set is gone entirely
    assert body["current_state"] == body["initial_state"] and body["state_diff"] == {}


def test_set_current_without_merge_replaces_current_only(http, hub):
    sid = new_sid()
    defaults = go(http, hub, "chat", sid)["initial_state"]
    replacement = {k: defaults[k] for k in ("workspace", "current_user", "users")}
    post(http, hub, "chat", sid, action="set_current", state=replacement)
    body = go(http, hub, "chat", sid)
    assert body["current_state"] == replacement
    assert body["initial_state"] == defaults  # baseline untouched
    assert body["state_diff"]["channels"] == {"old": defaults["channels"], "new": None}
    assert "workspace" not in str(body["state_diff"].keys())


def test_set_current_with_merge_deep_merges_into_current(http, hub):
    sid = new_sid()
    post(
        http,
        hub,
        "tracker",
        sid,
        action="set_current",
        state={"issues": {"WEB-3": {"priority": "high"}}},
        merge=True,
    )
    post(
        http,
        hub,
        "tracker",
        sid,
        action="set_current",
        state={"issues": {"WEB-3": {"assignee": "u_raj"}}},
        merge=True,
    )
    body = go(http, hub, "tracker", sid)
    issue = body["current_state"]["issues"]["WEB-3"]
    assert (issue["priority"], issue["assignee"], issue["summary"]) == (
        "high",
        "u_raj",
        "Show order summary in a sticky sidebar",
    )
    assert body["state_diff"] == {
        "issues.WEB-3.priority": {"old": "medium", "new": "high"},
        "issues.WEB-3.assignee": {"old": "u_lena", "new": "u_raj"},
    }


def test_reset_copies_the_baseline_back_to_current(http, hub):
    sid = new_sid()
    post(http, hub, "mail", sid, action="set", state={"account": {"signature": "Cheers"}})
    post(
        http, hub, "mail", sid, action="set_current", state={"messages": {"e001": {"read": True}}}, merge=True
    )
    assert go(http, hub, "mail", sid)["state_diff"] == {"messages.e001.read": {"old": False, "new": True}}
    post(http, hub, "mail", sid, action="reset")
    body = go(http, hub, "mail", sid)
    assert body["state_diff"] == {}
    assert body["current_state"]["account"]["signature"] == "Cheers"  # the baseline, not the defaults


def test_reset_of_an_untouched_sid_gives_the_defaults(http, hub):
    sid = new_sid()
    assert post(http, hub, "store", sid, action="reset").status_code == 200
    assert go(http, hub, "store", sid)["state_diff"] == {}


def test_two_sids_are_isolated(http, hub):
    a, b = new_sid(), new_sid()
    post(http, hub, "store", a, action="set", state={"store": {"name": "Shop A"}})
    post(
        http,
        hub,
        "store",
        a,
        action="set_current",
        state={"orders": {"o1003": {"note": "A only"}}},
        merge=True,
    )
    post(http, hub, "store", b, action="set", state={"store": {"name": "Shop B"}})
    body_a, body_b = go(http, hub, "store", a), go(http, hub, "store", b)
    assert body_a["current_state"]["store"]["name"] == "Shop A"
    assert body_b["current_state"]["store"]["name"] == "Shop B"
    assert body_a["state_diff"] == {"orders.o1003.note": {"old": "Gift wrap please.", "new": "A only"}}
    assert body_b["state_diff"] == {}


def test_apps_do_not_share_sessions(http, hub):
    sid = new_sid()
    post(http, hub, "chat", sid, action="set", state={"workspace": {"name": "Chat only"}})
    assert http.get(hub.url("mail", "state", sid)).json()["has_custom_state"] is False


def test_deletion_is_reported_as_new_null(http, hub):
    sid = new_sid()
    post(http, hub, "chat", sid, action="set", state={"extra": {"keep": 1, "drop": {"deep": [1]}}})
    current = http.get(hub.url("chat", "state", sid)).json()["stored_state"]
    del current["extra"]["drop"]
    post(http, hub, "chat", sid, action="set_current", state=current)
    assert go(http, hub, "chat", sid)["state_diff"] == {"extra.drop": {"old": {"deep": [1]}, "new": None}}


def test_arrays_are_compared_as_whole_values(http, hub):
    sid = new_sid()
    post(http, hub, "chat", sid, action="set", state={"extra": {"list": [1, 2, 3], "same": [{"a": 1}]}})
    post(
        http,
        hub,
        "chat",
        sid,
        action="set_current",
        state={"extra": {"list": [1, 2, 4], "same": [{"a": 1}]}},
        merge=True,
    )
    # One entry for the array's path, holding both whole arrays; an equal array is no change.
    assert go(http, hub, "chat", sid)["state_diff"] == {"extra.list": {"old": [1, 2, 3], "new": [1, 2, 4]}}


def test_added_keys_are_reported_with_old_null(http, hub):
    sid = new_sid()
    post(http, hub, "chat", sid, action="set_current", state={"extra": {"added": True}}, merge=True)
    assert go(http, hub, "chat", sid)["state_diff"] == {"extra": {"old": None, "new": {"added": True}}}


def test_volatile_keys_are_excluded_from_the_diff(http, hub):
    sid = new_sid()
    post(
        http,
        hub,
        "chat",
        sid,
        action="set_current",
        merge=True,
        state={"ui": {"conversation": "c_random"}, "last_read": {"c_general": "2024-06-05T00:00:00Z"}},
    )
    assert go(http, hub, "chat", sid)["state_diff"] == {}
    post(
        http,
        hub,
        "tracker",
        sid,
        action="set_current",
        merge=True,
        state={"issues": {"WEB-7": {"status": "done", "updated": "2030-01-01T00:00:00Z"}}},
    )
    body = go(http, hub, "tracker", sid)
    assert body["state_diff"] == {"issues.WEB-7.status": {"old": "in_review", "new": "done"}}
    assert (
        body["current_state"]["issues"]["WEB-7"]["updated"] == "2030-01-01T00:00:00Z"
    )  # stored, just not diffed


def test_unknown_action_is_400(http, hub):
    body = assert_error(post(http, hub, "chat", new_sid(), action="delete"), 400)
    assert "set_current" in body["hint"]


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'"set"', b""])
def test_bad_json_is_400(http, hub, content):
    response = http.post(
        hub.url("chat", "post", new_sid()), content=content, headers={"content-type": "application/json"}
    )
    assert_error(response, 400)


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "set"},  # no state
        {"action": "set_current", "state": [1]},  # state not an object
        {"action": "set_current", "state": {}, "merge": "yes"},  # merge not a boolean
        {"state": {}},  # no action
    ],
)
def test_malformed_requests_are_400(http, hub, payload):
    assert_error(http.post(hub.url("chat", "post", new_sid()), json=payload), 400)


def test_state_breaking_the_schema_is_422_and_changes_nothing_with_strict(http, hub):
    sid = new_sid()
    response = post(
        http,
        hub,
        "tracker",
        sid,
        action="set_current",
        merge=True,
        strict=True,
        state={"issues": {"WEB-3": {"status": "shipped"}}},
    )
    body = assert_error(response, 422)
    assert "WEB-3" in body["error"] and "SCHEMA.md" in body["hint"]
    assert go(http, hub, "tracker", sid)["state_diff"] == {}
    # Cross-entity rule: a sprint of another project.
    assert_error(
        post(
            http,
            hub,
            "tracker",
            sid,
            action="set",
            strict=True,
            state={"issues": {"MOB-2": {"sprint": "s_web_12"}}},
        ),
        422,
    )


def test_without_strict_a_state_is_stored_as_sent_like_cua_gym_hub(http, hub):
    # The compatibility default (CUA-Gym-Hub checks no schema): the same write is stored.
    sid = new_sid()
    state = {"issues": {"WEB-3": {"status": "shipped"}}}
    assert post(http, hub, "tracker", sid, action="set_current", state=state).status_code == 200
    assert http.get(hub.url("tracker", "state", sid)).json()["stored_state"] == state
    assert_error(post(http, hub, "tracker", sid, action="set_current", state={}, strict="yes"), 400)


def test_unknown_routes_answer_error_and_hint(http, hub):
    assert_error(http.get(f"{hub.base}/nope/go", params={"sid": "a"}), 404)
    assert_error(http.get(f"{hub.base}/chat/post", params={"sid": "a"}), 405)


def test_index_and_ui_pages_are_served(http, hub):
    index = http.get(f"{hub.base}/")
    assert index.status_code == 200 and all(f"{app}/?sid=default" in index.text for app in ALL_APPS)
    for app in ALL_APPS:
        page = http.get(f"{hub.base}/{app}/?sid=x")
        assert page.status_code == 200 and 'type="module"' in page.text
        assert http.get(f"{hub.base}/{app}/assets/app.js").status_code == 200


def test_store_orders_csv_reflects_the_session(http, hub):
    sid = new_sid()
    post(
        http,
        hub,
        "store",
        sid,
        action="set_current",
        state={"orders": {"o1005": {"financial_status": "paid"}}},
        merge=True,
    )
    csv_text = http.get(f"{hub.base}/store/api/orders.csv", params={"sid": sid}).text
    row = next(line for line in csv_text.splitlines() if line.startswith("#1005"))
    assert ",paid," in row and row.endswith(",77.28")  # 66.00 + 6.00 shipping + 8 % tax on 66.00


def test_healthz_counts_live_sessions(http, hub):
    post(http, hub, "mail", new_sid(), action="set", state={"account": {"signature": "x"}})
    health = http.get(f"{hub.base}/healthz").json()
    assert health["ok"] is True and health["apps"] == list(ALL_APPS) and health["sessions"]["mail"] >= 1
