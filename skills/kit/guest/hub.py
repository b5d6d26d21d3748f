"""Guest helpers shared by the web families: the hub's state API (DESIGN.md §3.3) through `requests`.

Each function is shipped as source into the generated scripts that reach it, so each one imports
what it needs inside its body and uses only the standard library and requests.
The hub address and session come from the environment the env provider sets (`CUAGYM_HUB_URL`,
`CUAGYM_SID`); a bundle keeps the `__CUAGYM_*__` placeholders until run time, so the same file runs
in our sandbox and in an OSWorld VM.

Rewards use `hub_read` only (GET); setup and golden scripts also use `hub_write` (POST). A hub that
answers with an error raises, so a broken grader exits non-zero instead of scoring 0.
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
    """POST /<app>/post?sid=… {action, state, strict}: `set` replaces current and baseline (deep-merged
    with the app's defaults), `set_current` replaces current only (the whole state: read it first)."""
    import os

    import requests

    HUB = os.environ.get("CUAGYM_HUB_URL", "__CUAGYM_HUB_URL__").rstrip("/")
    SID = os.environ.get("CUAGYM_SID", "__CUAGYM_SID__")
    response = requests.post(
        f"{HUB}/{app}/post",
        params={"sid": SID},
        # strict: a state that breaks the app's schema is a bug in the script, refused with 422
        json={"action": action, "state": state, "strict": True},
        timeout=30,
    )
    if response.status_code != 200:
        raise RuntimeError(
            f"POST /{app}/post {action} answered {response.status_code}: {response.text[:400]}"
        )
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


def unchanged_except(go, collection, ids=(), fields=None):
    """True when no record of `collection` was deleted and no record outside `ids` changed: none of
    its `fields` (every field when None) has a path in `state_diff`, which already leaves out the app's
    volatile keys. New records are not counted here; check them with `added_ids`.

    Example: `unchanged_except(go, "orders", ids=P["tracking"], fields=("financial_status", "cancelled"))`.
    """
    before = go["initial_state"].get(collection) or {}
    after = go["current_state"].get(collection) or {}
    if any(key not in after for key in before):
        return False
    skip = {str(key) for key in ids}
    for path in go["state_diff"]:
        parts = path.split(".")
        if parts[0] != collection or len(parts) < 2 or parts[1] not in before or parts[1] in skip:
            continue
        if fields is None or len(parts) == 2 or parts[2] in fields:
            return False
    return True


def next_id(collection, prefix, width):
    """The id the mock UIs give the next record: `prefix` + (largest number in use + 1), zero-padded
    (hub.js nextId): "m0034" after "m0033"."""
    numbers = [
        int(key[len(prefix) :])
        for key in collection
        if key.startswith(prefix) and key[len(prefix) :].isdigit()
    ]
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
            token = re.sub(r"[.,]", "", token[:last]) + "." + token[last + 1 :]
        else:
            token = re.sub(r"[.,]", "", token)
        try:
            found.append(float(token))
        except ValueError:
            continue
    return found


def chat_post(state, conversation, text, thread=None, pinned=False):
    """Post `text` in `conversation` as the current user, the way the chat UI does (model.js
    postMessage); returns the new message id."""
    mid = next_id(state["messages"], "m", 4)
    state["messages"][mid] = {
        "conversation": conversation,
        "user": state["current_user"],
        "text": text,
        "ts": now_iso(),
        "thread": thread,
        "reactions": {},
        "edited": False,
        "pinned": pinned,
        "files": [],
    }
    return mid


def chat_channel(state, name, purpose="", private=False, members=()):
    """Create #`name` as the current user, the way the chat UI does (model.js createChannel: id
    c_<name with _ for ->), with `members` added after the creator; returns the channel id."""
    me = state["current_user"]
    cid = "c_" + name.replace("-", "_")
    state["channels"][cid] = {
        "name": name,
        "topic": "",
        "purpose": purpose,
        "private": private,
        "archived": False,
        "starred": False,
        "members": [me, *members],
        "created_by": me,
        "created": now_iso(),
    }
    return cid


def add_comment(state, issue, body):
    """Comment `body` on `issue` as the current user, the way the tracker UI does (model.js
    addComment: "cm" + the largest number in any comment id + 1); returns the new comment id."""
    import re

    numbers = [int(re.sub(r"\D", "", cid) or 0) for cid in state["comments"]]
    cid = f"cm{max(numbers, default=0) + 1:03d}"
    state["comments"][cid] = {
        "issue": issue,
        "author": state["current_user"],
        "body": body,
        "created": now_iso(),
    }
    return cid


def awaiting_shipment(order):
    """A store order the warehouse still has to ship: paid, unfulfilled and not cancelled."""
    return (
        order["financial_status"] == "paid"
        and order["fulfillment_status"] == "unfulfilled"
        and not order["cancelled"]
    )


def order_total(order, tax_rate):
    """A store order's total the way the store derives it (infra/hub/apps/store/router.py order_totals):
    subtotal - discount + shipping + tax on (subtotal - discount), each rounded to the cent."""
    subtotal = round(sum(x["price"] * x["quantity"] for x in order["lines"]), 2)
    discount = round((order.get("discount") or {}).get("amount", 0.0), 2)
    tax = round((subtotal - discount) * tax_rate, 2)
    return round(subtotal - discount + order.get("shipping", 0.0) + tax, 2)


def mail_send(state, to, subject, body, reply_to=None, cc=(), attachments=()):
    """Send a message from the account, the way the mail UI does (model.js saveOutgoing): a reply to
    `reply_to` joins its thread and copies its labels, anything else starts thread t_<id>; `to` and
    `cc` are lists of {name, email}. Returns the new message id."""
    mid = next_id(state["messages"], "e", 3)
    parent = state["messages"][reply_to] if reply_to else None
    state["messages"][mid] = {
        "folder": "sent",
        "thread": parent["thread"] if parent else f"t_{mid}",
        "from": {"name": state["account"]["name"], "email": state["account"]["email"]},
        "to": list(to),
        "cc": list(cc),
        "subject": subject,
        "body": body,
        "date": now_iso(),
        "read": True,
        "starred": False,
        "labels": list(parent["labels"]) if parent else [],
        "attachments": list(attachments),
        "in_reply_to": reply_to,
    }
    return mid


def new_sent(go):
    """Mail messages sent since the initial state: new records of `messages` in folder "sent"."""
    now = go["current_state"]["messages"]
    return [now[mid] for mid in added_ids(go, "messages") if now[mid]["folder"] == "sent"]
