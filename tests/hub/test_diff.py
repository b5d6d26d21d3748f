"""The merge and diff rules on hand-built states (the HTTP contract tests cover them end to end)."""

from __future__ import annotations

from infra.hub.diff import VolatileKeys, deep_merge, json_equal, state_diff


def test_deep_merge_recurses_objects_and_replaces_everything_else():
    base = {"a": {"x": 1, "y": {"z": 2}}, "list": [1, 2], "keep": True}
    patch = {"a": {"y": {"w": 3}}, "list": [3], "new": None}
    assert deep_merge(base, patch) == {
        "a": {"x": 1, "y": {"z": 2, "w": 3}},
        "list": [3],
        "keep": True,
        "new": None,
    }
    assert base == {"a": {"x": 1, "y": {"z": 2}}, "list": [1, 2], "keep": True}  # inputs untouched


def test_diff_rules():
    old = {"a": {"b": 1, "gone": "x"}, "arr": [{"k": 1}], "same": [1, 2], "n": 1}
    new = {"a": {"b": 2, "added": {"deep": 1}}, "arr": [{"k": 2}], "same": [1, 2], "n": 1.0}
    assert state_diff(old, new) == {
        "a.b": {"old": 1, "new": 2},
        "a.gone": {"old": "x", "new": None},  # deletion
        "a.added": {"old": None, "new": {"deep": 1}},  # addition reported whole
        "arr": {"old": [{"k": 1}], "new": [{"k": 2}]},  # arrays atomic
    }  # 1 -> 1.0 is no change: JSON has one number type


def test_booleans_are_not_numbers():
    assert not json_equal(True, 1) and not json_equal(0, False) and json_equal(2, 2.0)
    assert state_diff({"flag": 1}, {"flag": True}) == {"flag": {"old": 1, "new": True}}


def test_object_replaced_by_scalar_is_one_change():
    assert state_diff({"a": {"b": 1}}, {"a": "flat"}) == {"a": {"old": {"b": 1}, "new": "flat"}}


def test_null_and_missing_are_the_same_value():
    assert state_diff({"a": None}, {}) == {} and state_diff({}, {"a": None}) == {}


def test_volatile_patterns_hide_whole_subtrees_and_wildcard_segments():
    volatile = VolatileKeys(["ui", "issues.*.updated"])
    old = {"ui": {"x": 1}, "issues": {"A-1": {"updated": "t1", "status": "todo"}}}
    new = {
        "ui": {"x": 2, "y": 3},
        "issues": {"A-1": {"updated": "t2", "status": "done"}, "A-2": {"updated": "t3"}},
    }
    assert state_diff(old, new, volatile) == {
        "issues.A-1.status": {"old": "todo", "new": "done"},
        "issues.A-2": {"old": None, "new": {"updated": "t3"}},
    }


def test_unchanged_state_has_empty_diff():
    state = {"a": {"b": [1, {"c": 2}]}}
    assert state_diff(state, {"a": {"b": [1, {"c": 2}]}}) == {}
