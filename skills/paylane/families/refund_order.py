"""Paylane: refund a payment with a reason. Data and wording: refund_order.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog
from skills.kit.teach_web import chosen, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("paylane")
    name = rng.choice(pools["names"])
    (customer,) = records("paylane", "customers", 1, rng, state, name=name)
    payments = {}
    for number in rng.sample(range(10600, 10700), 3):
        fixed = {"description": f"Order #{number}", "customer": customer, "status": "succeeded", "tags": []}
        payments.update(records("paylane", "payments", 1, rng, state, **fixed))
    payment = rng.choice(sorted(payments))
    return {
        "world": {"customers": {customer: state["customers"][customer]}, "payments": payments},
        "customer": customer,
        "customer_name": name,
        "payment": payment,
        "title": payments[payment]["description"],
        "amount": payments[payment]["amount"],
        "reason": rng.choice(pools["reasons"]),
    }


def initial_setup(P):
    hub_write("paylane", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("paylane", "state")["stored_state"]
    if mistake != "status_only":
        state["refunds"][next_id(state["refunds"], "re", 4)] = {
            "payment": P["payment"],
            "reason": P["reason"],
            "status": "pending",
            "created": "2024-06-14T10:00:00Z",
            "by": state["current_user"],
        }
    if mistake != "refund_only":
        state["payments"][P["payment"]]["status"] = "refunded"
    hub_write("paylane", "set_current", state)


def reward(P):
    go = hub_read("paylane", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the payment is the one the task names, succeeded and never refunded")
    def payment_as_described():
        old = before["payments"].get(P["payment"], {})
        refunded = any(r["payment"] == P["payment"] for r in before["refunds"].values())
        return old.get("description") == P["title"] and old.get("status") == "succeeded" and not refunded

    @precondition("no other payment changed and no payment or refund was deleted")
    def others_intact():
        return unchanged_except(go, "payments", ids=[P["payment"]]) and unchanged_except(go, "refunds")

    @component("the payment is refunded", 0.5)
    def refunded():
        return now["payments"][P["payment"]]["status"] == "refunded"

    @component("a refund with the reason is issued for it", 0.5)
    def issued():
        new = [now["refunds"][r] for r in added_ids(go, "refunds")]
        return any(r["payment"] == P["payment"] and mentions(r.get("reason") or "", P["reason"]) for r in new)


def demonstrate(P, screen):
    """Open the payment, press Refund payment, type the reason in the dialog and confirm."""
    yield from open_view(screen, "Payments")
    yield from open_record(screen, "Payments", P["title"])
    yield from press(screen, "Refund payment")
    yield [click(in_dialog(screen, "entry", "Refund reason")), {"action": "type", "text": P["reason"]}]
    yield [click(in_dialog(screen, "push-button", "Refund payment"))]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    chosen(screen, "Status", "Refunded")
    yield settle()
