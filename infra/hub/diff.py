"""State merge and diff rules shared by every mock app (DESIGN.md §3.3, paper appendix B.3.3).

- `deep_merge(base, patch)`: objects are merged key by key, recursively; anything else in `patch`
  (arrays, scalars, null) replaces what `base` had. Neither input is modified; untouched subtrees
  are shared with `base`, which is safe because the hub never mutates a stored state in place.
- `state_diff(old, new, volatile)`: a flat `{dotted.path: {"old": a, "new": b}}` map. Objects are
  recursed; arrays are compared as whole values (one entry for the array's path); a key that
  appears is reported with `old: null`, a key that disappears with `new: null`. Paths matching a
  volatile pattern (and everything under them) are left out. `{}` means nothing changed.
- `nesting_depth(value, limit)`: how many objects/arrays deep `value` goes, counted without
  recursion so that any input can be measured; the hub bounds states with it (settings.py).

Keys containing "." make dotted paths ambiguous; the apps' schemas never use them.
"""

from __future__ import annotations

from typing import Any

JSON = Any
_CONTAINERS = (dict, list)


def deep_merge(base: dict[str, JSON], patch: dict[str, JSON]) -> dict[str, JSON]:
    """Return `base` with `patch` merged in (objects recursed, everything else replaced).

    Example:

        deep_merge({"a": {"x": 1, "y": 2}, "l": [1]}, {"a": {"y": 3}, "l": [2]})
        == {"a": {"x": 1, "y": 3}, "l": [2]}
    """
    merged = dict(base)
    for key, value in patch.items():
        previous = merged.get(key)
        if isinstance(value, dict) and isinstance(previous, dict):
            merged[key] = deep_merge(previous, value)
        else:
            merged[key] = value
    return merged


def json_equal(a: JSON, b: JSON) -> bool:
    """JSON equality: 1 == 1.0 (JSON has one number type) but True != 1 and 0 != false."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is not tb:
        numeric = (int, float)
        return ta in numeric and tb in numeric and a == b
    if ta is dict:
        return len(a) == len(b) and all(k in b and json_equal(v, b[k]) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def nesting_depth(value: JSON, limit: int) -> int:
    """Containers on the deepest path through `value` (a scalar is 0, `{"a": [1]}` is 2), or
    `limit + 1` as soon as some path is found to be deeper than `limit`.

    Example:

        nesting_depth({"a": [1, {"b": 2}]}, 64) == 3
    """
    deepest = 0
    stack = [(value, 1)] if type(value) in _CONTAINERS else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return depth
        deepest = max(deepest, depth)
        children = node.values() if type(node) is dict else node
        stack.extend((child, depth + 1) for child in children if type(child) in _CONTAINERS)
    return deepest


class VolatileKeys:
    """Dotted patterns whose changes do not count; `*` matches exactly one path segment.

    Example: `VolatileKeys(["ui", "issues.*.updated"])` hides `ui.view` and `issues.WEB-1.updated`
    but not `issues.WEB-1.status`.
    """

    def __init__(self, patterns: list[str] | tuple[str, ...]) -> None:
        self.patterns: tuple[tuple[str, ...], ...] = tuple(tuple(p.split(".")) for p in patterns if p)

    def step(self, alive: tuple[tuple[tuple[str, ...], int], ...], key: str):
        """Advance partially matched patterns by one key; returns (excluded, still_alive)."""
        nxt = []
        for pattern, depth in alive:
            segment = pattern[depth]
            if segment == "*" or segment == key:
                if depth + 1 == len(pattern):
                    return True, ()
                nxt.append((pattern, depth + 1))
        return False, tuple(nxt)

    def start(self) -> tuple[tuple[tuple[str, ...], int], ...]:
        return tuple((p, 0) for p in self.patterns)


def state_diff(old: dict[str, JSON], new: dict[str, JSON], volatile: VolatileKeys | None = None) -> dict:
    """Flat diff from `old` to `new` under the rules in the module docstring.

    Example:

        state_diff({"a": {"b": 1}, "l": [1, 2], "gone": 1}, {"a": {"b": 2}, "l": [2, 1]})
        == {"a.b": {"old": 1, "new": 2}, "l": {"old": [1, 2], "new": [2, 1]},
            "gone": {"old": 1, "new": None}}
    """
    volatile = volatile or VolatileKeys([])
    out: dict[str, dict[str, JSON]] = {}
    _walk(old, new, "", volatile.start(), volatile, out)
    return out


def _walk(old: dict, new: dict, prefix: str, alive, volatile: VolatileKeys, out: dict) -> None:
    if old is new:
        return
    for key in _ordered_keys(old, new):
        excluded, still = volatile.step(alive, key) if alive else (False, ())
        if excluded:
            continue
        a, b = old.get(key), new.get(key)
        path = f"{prefix}{key}"
        if type(a) is dict and type(b) is dict:
            _walk(a, b, path + ".", still, volatile, out)
        elif not (key in old and key in new and json_equal(a, b)):
            if a is None and b is None:
                # null -> missing (or the reverse) is the same value under "deletion is new: null".
                continue
            out[path] = {"old": a, "new": b}


def _ordered_keys(old: dict, new: dict) -> list[str]:
    # Old keys first, then added ones, so the diff reads in the state's own order.
    return list(old) + [k for k in new if k not in old]
