"""Guest helpers shared by the web families: the hub's state API (DESIGN.md §3.3) through `requests`.

Each function is shipped as source into generated scripts (list it in a family's `helpers` tuple),
so each one imports what it needs inside its body and uses only the standard library and requests.
The hub address and session come from the environment the env provider sets (`CUAGYM_HUB_URL`,
`CUAGYM_SID`); a bundle keeps the `__CUAGYM_*__` placeholders until run time, so the same file runs
in our sandbox and in an OSWorld VM.

Rewards use `hub_read` only (GET); setup and golden scripts also use `hub_write` (POST). A hub that
answers with an error raises, so a broken grader exits non-zero instead of scoring 0.

The folder name starts with an underscore so it is not taken for an app (tests/test_docs.py).
"""

from __future__ import annotations


def hub_read(app, endpoint):
    """GET /<app>/<endpoint>?sid=… as JSON (`go` for {initial_state, current_state, state_diff},
    `state` for {stored_state, …})."""
    import os

    import requests

    HUB = os.environ.get("CUAGYM_HUB_URL", "__CUAGYM_HUB_URL__").rstrip("/")
    SID = os.environ.get("CUAGYM_SID", "__CUAGYM_SID__")
    response = requests.get(f"{HUB}/{app}/{endpoint}", params={"sid": SID}, timeout=30)
    if response.status_code != 200:
        raise RuntimeError(f"GET /{app}/{endpoint} answered {response.status_code}: {response.text[:400]}")
    return response.json()


def hub_write(app, action, state):
    """POST /<app>/post?sid=… {action, state}: `set` replaces current and baseline (deep-merged with the
    app's defaults), `set_current` replaces current only (the whole state: read it first)."""
    import os

    import requests

    HUB = os.environ.get("CUAGYM_HUB_URL", "__CUAGYM_HUB_URL__").rstrip("/")
    SID = os.environ.get("CUAGYM_SID", "__CUAGYM_SID__")
    response = requests.post(f"{HUB}/{app}/post", params={"sid": SID}, json={"action": action, "state": state},
                             timeout=30)  # fmt: skip
    if response.status_code != 200:
        raise RuntimeError(f"POST /{app}/post {action} answered {response.status_code}: {response.text[:400]}")
    return response.json()


def now_iso():
    """UTC now the way the mock UIs stamp records (`new Date().toISOString()` without milliseconds)."""
    import datetime

    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def squash(text):
    """Text folded for comparison: case, punctuation and runs of whitespace do not count, but dots and
    hyphens inside a token do ("v2.1", "q3-launch", "ap@x.test" survive; "15:30." becomes "15 30")."""
    import re
    import unicodedata

    text = unicodedata.normalize("NFKC", str(text or "")).casefold()
    tokens = re.sub(r"[^\w@.#$%-]+", " ", text).split()
    return " ".join(t for t in (token.strip(".-") for token in tokens) if t)


def mentions(text, phrase):
    """`phrase` occurs in `text` as whole words once both are squashed ("Re-run, please!" mentions
    "re-run please"; "build 2.14.25" does not mention "2.14.2")."""
    return f" {squash(phrase)} " in f" {squash(text)} "


def added_ids(go, collection):
    """Ids of records in `collection` that exist now but not in the initial state (new records):
    the UIs pick ids themselves, so rewards find new records by set difference, never by id."""
    before = go["initial_state"].get(collection) or {}
    after = go["current_state"].get(collection) or {}
    return [key for key in after if key not in before]


def removed_ids(go, collection):
    """Ids of records in `collection` that existed initially and are gone now."""
    before = go["initial_state"].get(collection) or {}
    after = go["current_state"].get(collection) or {}
    return [key for key in before if key not in after]


def changed_paths(go, prefix):
    """state_diff paths under `prefix` (a dotted record path such as "products.p_mug")."""
    return [path for path in go["state_diff"] if path == prefix or path.startswith(prefix + ".")]


def next_id(collection, prefix, width):
    """The id the mock UIs give the next record: `prefix` + (largest number in use + 1), zero-padded
    (hub.js nextId): "m0034" after "m0033"."""
    numbers = [int(key[len(prefix):]) for key in collection if key.startswith(prefix) and key[len(prefix):].isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1:0{width}d}"


def amounts_in(text):
    """Every number written in `text`, reading "$12,345.60", "12 345,60" and "12345.6" alike (a comma or
    dot followed by exactly three digits is a thousands separator, any other one a decimal point)."""
    import re

    found = []
    spaced = r"\d{1,3}(?:['\u00a0\u202f ]\d{3})+(?:[.,]\d+)?"  # 12 345.60: spaces only between digit groups
    for token in re.findall(spaced + r"|\d[\d.,]*\d|\d", str(text or "")):
        token = re.sub(r"['\u00a0\u202f ]", "", token)
        last = max(token.rfind(","), token.rfind("."))
        if last >= 0 and len(token) - last - 1 != 3:
            token = re.sub(r"[.,]", "", token[:last]) + "." + token[last + 1:]
        else:
            token = re.sub(r"[.,]", "", token)
        try:
            found.append(float(token))
        except ValueError:
            continue
    return found


# Every helper above, for a family's `helpers` tuple (rendering inlines only the ones a script reaches).
WEB_HELPERS = (hub_read, hub_write, now_iso, squash, mentions, added_ids, removed_ids, changed_paths, next_id,
               amounts_in)
