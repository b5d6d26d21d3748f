"""Change units of hub states: one per `state_diff` path of the golden session (a record added or
removed, a field changed; volatile keys are already left out by the hub), and one corruption: a record
the golden state left alone is deleted. Pure functions over JSON, plus the calls that put a state
into a fresh session."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import httpx

from infra.errors import EnvError

_MISSING = object()


@dataclass(frozen=True)
class HubUnit:
    app: str
    path: str  # dotted, as in state_diff
    old: Any
    new: Any

    @property
    def what(self) -> str:
        if self.old is None:
            return f"{self.app}: {self.path} added"
        if self.new is None:
            return f"{self.app}: {self.path} removed"
        return f"{self.app}: {self.path} changed"


@dataclass
class HubStates:
    """One app's initial (baseline) and golden (current) state, as the golden session's /go gives them."""

    app: str
    initial: dict
    golden: dict
    diff: dict

    def units(self) -> list[HubUnit]:
        return [HubUnit(self.app, path, change.get("old"), change.get("new")) for path, change in sorted(self.diff.items())]


def with_value(state: dict, path: str, value: Any) -> dict:
    """A copy of `state` with the dotted `path` set to `value` (None deletes it, as in state_diff)."""
    result = copy.deepcopy(state)
    keys = path.split(".")
    node = result
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    if value is None:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = copy.deepcopy(value)
    return result


def bystander_deleted(states: HubStates) -> tuple[str, dict] | None:
    """(what, state): the golden state without one record the golden diff never touched."""
    touched = {tuple(path.split(".")[:2]) for path in states.diff}
    collections = sorted({path.split(".")[0] for path in states.diff})
    for collection in collections + sorted(states.golden):
        records = states.golden.get(collection)
        if not isinstance(records, dict):
            continue
        for record in sorted(records):
            if (collection, record) not in touched and (collection,) not in touched:
                return f"{states.app}: {collection}.{record}, which the task leaves alone, is deleted", with_value(
                    states.golden, f"{collection}.{record}", None
                )
    return None


def read_states(client: httpx.Client, app: str, sid: str) -> HubStates:
    go = _ok(client.get(f"/{app}/go", params={"sid": sid}), f"GET /{app}/go").json()
    return HubStates(app, go["initial_state"], go["current_state"], go["state_diff"])


def put_states(client: httpx.Client, app: str, sid: str, *, baseline: dict, current: dict) -> None:
    """Make `sid` a session whose initial state is `baseline` and whose current state is `current`."""
    for action, state in (("set", baseline), ("set_current", current)):
        response = client.post(f"/{app}/post", params={"sid": sid}, json={"action": action, "state": state})
        _ok(response, f"POST /{app}/post {action}")


def _ok(response: httpx.Response, what: str) -> httpx.Response:
    if response.status_code != 200:
        raise EnvError(f"{what} answered {response.status_code}: {response.text[:300]}",
                       hint="the hub refused a mutant state; see its log")  # fmt: skip
    return response
