"""Harbor Bank: schedule a transfer between own accounts. Data and wording: send_transfer.yaml."""

from skills.harborbank.families._gui import type_amount
from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import fill_date, in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import seeded

MONTHS = ["June", "July"]


def draw(rng, pools):
    state = seeded("harborbank")
    source, target = rng.choice(pools["routes"])
    month = rng.randint(6, 7)
    day = rng.randint(17, 28) if month == 6 else rng.randint(1, 15)
    amount = rng.choice([125, 180, 240, 300, 375, 420, 560, 750]) + rng.choice([0, 0.5, 0.25])
    return {
        "world": {},
        "reference": rng.choice(pools["references"]),
        "from_account": source,
        "from_name": state["accounts"][source]["name"],
        "to_account": target,
        "to_name": state["accounts"][target]["name"],
        "amount": amount,
        "amount_text": f"{amount:,.2f}",
        "date": f"2024-{month:02d}-{day:02d}",
        "date_text": f"{MONTHS[month - 6]} {day}, 2024",
    }


def initial_setup(P):
    hub_write("harborbank", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("harborbank", "state")["stored_state"]
    source, target = P["from_account"], P["to_account"]
    if mistake == "swapped":
        source, target = target, source
    transfer = {
        "reference": P["reference"],
        "from_account": source,
        "to_account": target,
        "amount": P["amount"],
        "status": "scheduled",
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_date":
        transfer["date"] = P["date"]
    state["transfers"][next_id(state["transfers"], "tr", 4)] = transfer
    hub_write("harborbank", "set_current", state)


def reward(P):
    go = hub_read("harborbank", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["transfers"][t] for t in added_ids(go, "transfers")]
    made = [t for t in new if squash(t.get("reference", "")) == squash(P["reference"])]

    @precondition("no transfer with that reference exists yet")
    def world_as_described():
        return not any(squash(t["reference"]) == squash(P["reference"]) for t in before["transfers"].values())

    @precondition("no existing transfer changed or was deleted, and only one transfer was added")
    def others_intact():
        return unchanged_except(go, "transfers") and len(new) <= 1

    @component("the transfer goes from the named account to the named account", 0.4)
    def routed():
        return any(
            t.get("from_account") == P["from_account"] and t.get("to_account") == P["to_account"]
            for t in made
        )

    @component("its amount is the one asked", 0.3)
    def amount():
        return any(abs(float(t.get("amount") or 0) - P["amount"]) < 0.005 for t in made)

    @component("it is sent on the date asked", 0.3)
    def dated():
        return any(t.get("date") == P["date"] for t in made)


def demonstrate(P, screen):
    """New transfer on Transfers; fill reference, both accounts, amount and date, then create it."""
    yield from open_view(screen, "Transfers")
    yield from press(screen, "New transfer")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New transfer dialog")
    yield from type_field(screen, "Reference", P["reference"])
    yield from choose(screen, "From account", P["from_name"])
    yield from choose(screen, "To account", P["to_name"])
    yield from type_amount(screen, "Amount", f"{P['amount']:.2f}")
    yield fill_date(screen, "Send on", P["date"])
    yield [
        {
            "action": "left_click",
            "coordinate": list(in_dialog(screen, "push-button", "Create transfer").center),
        }
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield settle()
