"""Paylane: note the running balance after a payout and mark it reviewed. Data and wording:
note_payout.yaml."""

from skills.kit.guest.hub import amounts_in, hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded

DEBITS = ("refund", "fee", "payout")


def draw(rng, pools):
    state = seeded("paylane")
    balance = rng.choice(pools["balances"])
    day = rng.choice(pools["days"])
    bank = state["balances"][balance]["bank"].split(" •")[0]
    entries = {}
    for offset, kind in ((-1, "charge"), (0, "payout"), (1, "charge")):
        number = rng.randint(10600, 10699)
        date = f"2024-06-{int(day[-2:]) + offset:02d}"
        fixed = {"balance": balance, "date": date, "type": kind, "reviewed": False, "note": ""}
        if kind == "payout":
            fixed |= {
                "description": f"Payout to {bank} {date[-2:]} Jun",
                "amount": float(rng.choice([1500, 2200, 3100])),
            }
        else:
            fixed |= {
                "description": f"Charge Order #{number}",
                "amount": rng.choice([84.0, 129.99, 312.5, 640.0]),
            }
        entries.update(records("paylane", "entries", 1, rng, state, **fixed))
    entry = next(e for e, r in entries.items() if r["type"] == "payout")
    rows = sorted(
        ((r["date"], eid, r) for eid, r in state["entries"].items() if r["balance"] == balance),
        key=lambda row: (row[0], row[1]),
    )
    running = state["balances"][balance]["opening"]
    after = before = running
    for _, eid, r in rows:
        before = running
        running = round(running - r["amount"] if r["type"] in DEBITS else running + r["amount"], 2)
        if eid == entry:
            after = running
            break
    return {
        "world": {"entries": entries},
        "balance": balance,
        "balance_name": state["balances"][balance]["name"],
        "entry": entry,
        "title": entries[entry]["description"],
        "amount": entries[entry]["amount"],
        "after": after,
        "after_text": f"${after:,.2f}",
        "before_amount": before,
    }


def initial_setup(P):
    hub_write("paylane", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("paylane", "state")["stored_state"]
    entry = state["entries"][P["entry"]]
    amount = P["before_amount"] if mistake == "wrong_amount" else P["after"]
    entry["note"] = f"Balance after payout: ${amount:,.2f}"
    if mistake != "not_reviewed":
        entry["reviewed"] = True
    hub_write("paylane", "set_current", state)


def reward(P):
    go = hub_read("paylane", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the payout is the one the task names, not yet reviewed")
    def payout_as_described():
        old = before["entries"].get(P["entry"], {})
        return old.get("description") == P["title"] and not old.get("reviewed")

    @precondition("no other balance transaction changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "entries", ids=[P["entry"]])

    @component("the payout's note states the running balance after it", 0.6)
    def noted():
        return any(
            abs(a - P["after"]) < 0.01 for a in amounts_in(now["entries"][P["entry"]].get("note") or "")
        )

    @component("the payout is marked reviewed", 0.4)
    def reviewed():
        return bool(now["entries"][P["entry"]].get("reviewed"))


def demonstrate(P, screen):
    """Pick the balance on Balance, open the payout (its row shows the balance after it), write the
    note, then Mark reviewed."""
    yield from open_view(screen, "Balance")
    yield from choose(screen, "Account", P["balance_name"])
    yield from open_record(screen, "Balance", P["title"])
    screen.find(
        lambda e: e.role == "static" and e.name == P["after_text"], timeout_s=10, what="the row's balance"
    )
    yield from type_field(screen, "Note", f"Balance after payout: {P['after_text']}")
    yield from press(screen, "Mark reviewed")
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "push-button" and e.name == "Mark reviewed"),
        timeout_s=10,
        what="the payout reviewed",
    )
    yield settle()
