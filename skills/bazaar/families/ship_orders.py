"""Bazaar: ship every paid order of one delivery method. Data and wording: ship_orders.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import option_label, records, seeded


def draw(rng, pools):
    state = seeded("bazaar")
    delivery = rng.choice(["express", "pickup", "standard"])
    other = rng.choice(sorted({"express", "pickup", "standard"} - {delivery}))
    world = {"customers": {}, "orders": {}, "order_lines": {}}
    # The seeded paid order BZ0001 (express) would be a target the task never built: make it standard.
    world["orders"]["BZ0001"] = {**state["orders"]["BZ0001"], "delivery": "standard"}
    state["orders"]["BZ0001"]["delivery"] = "standard"
    n_targets = rng.randint(2, 3)
    shapes = [("paid", delivery)] * n_targets + [("placed", delivery), ("shipped", delivery), ("paid", other)]
    names = rng.sample(pools["customers"], len(shapes))
    products = sorted(state["products"])
    for name, (status, method) in zip(names, shapes, strict=True):
        world["customers"].update(records("bazaar", "customers", 1, rng, state, name=name))
        customer = list(world["customers"])[-1]
        oid = f"BZ{len(state['orders']) + 1:04d}"
        lines, total = {}, 0.0
        for pid in rng.sample(products, rng.randint(1, 2)):
            lid = f"L{len(state['order_lines']) + len(lines) + 1:04d}"
            price, quantity = state["products"][pid]["price"], rng.randint(1, 2)
            lines[lid] = {"order": oid, "product": pid, "quantity": quantity, "price": price}
            total += price * quantity
        order = {"number": oid, "customer": customer, "status": status, "delivery": method}
        order |= {
            "total": round(total, 2),
            "placed_by": "s0002",
            "created": f"2024-06-{rng.randint(10, 13)}T11:30:00Z",
        }
        if status == "shipped":
            order["carrier"] = rng.choice(pools["carriers"])
        state["orders"][oid] = world["orders"][oid] = order
        state["order_lines"].update(lines)
        world["order_lines"].update(lines)
    targets = sorted(
        oid for oid, o in state["orders"].items() if o["status"] == "paid" and o["delivery"] == delivery
    )
    return {
        "world": world,
        "delivery": delivery,
        "delivery_label": option_label(delivery),
        "carrier": rng.choice(pools["carriers"]),
        "wrong": "Courier",
        "targets": targets,
    }


def initial_setup(P):
    hub_write("bazaar", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("bazaar", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for oid in targets:
        state["orders"][oid]["status"] = "shipped"
        state["orders"][oid]["carrier"] = P["wrong"] if mistake == "wrong_carrier" else P["carrier"]
    hub_write("bazaar", "set_current", state)


def reward(P):
    go = hub_read("bazaar", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the paid orders of that delivery method are the ones the task was built on")
    def world_as_described():
        found = [
            oid
            for oid, o in before["orders"].items()
            if o["status"] == "paid" and o["delivery"] == P["delivery"]
        ]
        return sorted(found) == sorted(P["targets"])

    @precondition("no other order changed and nothing was deleted")
    def others_intact():
        return unchanged_except(go, "orders", ids=P["targets"]) and unchanged_except(go, "order_lines")

    @component("each of those orders is shipped", 0.6)
    def shipped():
        return sum(now["orders"][o]["status"] == "shipped" for o in P["targets"]) / len(P["targets"])

    @component("each of them names the carrier", 0.4)
    def carrier():
        return sum(
            squash(now["orders"][o].get("carrier")) == squash(P["carrier"]) for o in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """From Orders, open each paid order of that delivery method, press Mark shipped, type the carrier
    in its prompt and confirm."""
    yield from open_view(screen, "Orders")
    for oid in P["targets"]:
        yield from open_record(screen, "Orders", oid)
        yield from press(screen, "Mark shipped")
        box = in_dialog(screen, "entry", "Carrier")
        yield [click(box), {"action": "type", "text": P["carrier"]}]
        yield [click(in_dialog(screen, "push-button", "Mark shipped"))]
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Mark delivered",
            timeout_s=10,
            what="the order shipped",
        )
    yield settle()
