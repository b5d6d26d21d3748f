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

    def units(self, incidental: list[str] = ()) -> list[HubUnit]:
        """One unit per diff path, except those matching an `<app>:<dotted pattern>` rule."""
        return [
            HubUnit(self.app, path, change.get("old"), change.get("new"))
            for path, change in sorted(self.diff.items())
            if not any(_matches(rule, self.app, path) for rule in incidental)
        ]


def _matches(rule: str, app: str, path: str) -> bool:
    rule_app, _, pattern = rule.partition(":")
    wanted, parts = pattern.split("."), path.split(".")
    return (
        rule_app == app
        and len(wanted) == len(parts)
        and all(w in ("*", p) for w, p in zip(wanted, parts, strict=True))
    )


def lookup(state: dict, path: str) -> Any:
    """The value at the dotted `path`, or _MISSING when some key on the way is absent."""
    node: Any = state
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return _MISSING
        node = node[key]
    return node


def with_value(state: dict, path: str, value: Any) -> dict:
    """A copy of `state` with the dotted `path` set to `value` (_MISSING deletes it)."""
    result = copy.deepcopy(state)
    keys = path.split(".")
    node = result
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    if value is _MISSING:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = copy.deepcopy(value)
    return result


def reverted(states: HubStates, unit: HubUnit) -> dict:
    """The golden state with `unit` undone: its path as the initial state has it (state_diff's null
    cannot tell a field that was null from one that was absent; the initial state can)."""
    return with_value(states.golden, unit.path, lookup(states.initial, unit.path))


def applied(states: HubStates, unit: HubUnit) -> dict:
    """The initial state with only `unit` done."""
    return with_value(states.initial, unit.path, lookup(states.golden, unit.path))


def bystanders_deleted(states: HubStates, limit: int = 6) -> list[tuple[str, dict]]:
    """Candidate (what, state) pairs: the golden state without one record the golden diff never
    touched, collections the task touches first. Several, because the hub refuses a state in which
    another record still refers to the deleted one; the first it accepts is the corruption."""
    touched = {tuple(path.split(".")[:2]) for path in states.diff}
    collections = sorted({path.split(".")[0] for path in states.diff})
    queues = []
    for collection in dict.fromkeys(collections + sorted(states.golden)):
        records = states.golden.get(collection)
        if isinstance(records, dict) and (collection,) not in touched:
            queues.append([(collection, r) for r in sorted(records) if (collection, r) not in touched])
    found = []
    while len(found) < limit and any(queues):  # one record per collection in turn
        for queue in queues:
            if queue and len(found) < limit:
                collection, record = queue.pop(0)
                what = f"{states.app}: {collection}.{record}, which the task leaves alone, is deleted"
                found.append((what, with_value(states.golden, f"{collection}.{record}", _MISSING)))
    return found


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
        raise EnvError(
            f"{what} answered {response.status_code}: {response.text[:300]}",
            hint="the hub refused a mutant state; see its log",
        )
    return response
