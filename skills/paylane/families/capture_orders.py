"""Paylane: capture a customer's uncaptured payments and tag them. Data and wording: capture_orders.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import chosen, open_record, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("paylane")
    name = rng.choice(pools["names"])
    (customer,) = records("paylane", "customers", 1, rng, state, name=name)
    numbers = rng.sample(range(10600, 10700), 5)
    n_targets = rng.randint(2, 3)
    payments = {}
    for index, number in enumerate(numbers[: n_targets + 2]):
        fixed = {"description": f"Order #{number}", "customer": customer, "status": "uncaptured", "tags": []}
        if index == n_targets:
            fixed["status"] = "succeeded"
        if index == n_targets + 1:
            fixed["customer"] = "cus0001"
        payments.update(records("paylane", "payments", 1, rng, state, **fixed))
    targets = sorted(
        p for p, r in payments.items() if r["customer"] == customer and r["status"] == "uncaptured"
    )
    return {
        "world": {"customers": {customer: state["customers"][customer]}, "payments": payments},
        "customer": customer,
        "customer_name": name,
        "targets": targets,
        "titles": [payments[p]["description"] for p in targets],
        "tag": rng.choice(pools["tags"]),
    }


def initial_setup(P):
    hub_write("paylane", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("paylane", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for pid in targets:
        state["payments"][pid]["status"] = "succeeded"
        if mistake != "no_tags":
            state["payments"][pid]["tags"] = [*state["payments"][pid].get("tags", []), P["tag"]]
    hub_write("paylane", "set_current", state)


def reward(P):
    go = hub_read("paylane", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the customer's uncaptured payments are exactly the targets")
    def world_as_described():
        theirs = sorted(
            p
            for p, r in before["payments"].items()
            if r["customer"] == P["customer"] and r["status"] == "uncaptured"
        )
        return theirs == sorted(P["targets"])

    @precondition("no other payment changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "payments", ids=P["targets"])

    @component("each of the customer's uncaptured payments is captured", 0.6)
    def captured():
        return sum(now["payments"][p]["status"] == "succeeded" for p in P["targets"]) / len(P["targets"])

    @component("each carries the tag", 0.4)
    def tagged():
        return sum(
            P["tag"] in [t.strip().lower() for t in now["payments"][p].get("tags") or []]
            for p in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each uncaptured payment of the customer: open it, press Capture payment, type the tag."""
    yield from open_view(screen, "Payments")
    for title in P["titles"]:
        yield from open_record(screen, "Payments", title)
        yield from press(screen, "Capture payment")
        chosen(screen, "Status", "Succeeded")
        yield from type_field(screen, "Tags", P["tag"])
        screen.find(
            lambda e: e.role == "entry" and e.name == "Tags" and e.text == P["tag"],
            timeout_s=10,
            what="the tag",
        )
    yield settle()
