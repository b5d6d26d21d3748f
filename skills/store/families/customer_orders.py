"""Store: ship a customer's paid orders, discount and charge the pending one, tag the customer. Data and wording: customer_orders.yaml."""

from skills.kit.guest.hub import awaiting_shipment, hub_read, hub_write, now_iso, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import button, click, in_dialog, named, toast
from skills.store.families._gui import fill, open_order, showing
from skills.store.world import catalogue_products, customer, discount, order, random_lines


def draw(rng, pools):
    carriers, used = pools["carriers"], set()
    name, person = customer(rng, used)
    _, other = customer(rng, used)
    cid, other_id = f"cu_{rng.randint(50, 69)}", f"cu_{rng.randint(70, 89)}"
    products = catalogue_products(rng, 5, "SKU", 30)
    number = rng.randint(20, 60) * 100
    orders, tracking, pending = {}, {}, None
    carrier = rng.choice(sorted(carriers))
    plan = ["paid"] * rng.randint(2, 3) + ["pending", "shipped", rng.choice(["refunded", "shipped"])]
    rng.shuffle(plan)
    for kind in plan:
        number += rng.randint(1, 9)
        financial = {"paid": "paid", "pending": "pending", "shipped": "paid", "refunded": "refunded"}[kind]
        ship = rng.choice(sorted(carriers)) if kind == "shipped" else None
        track = (ship, f"ZX{rng.randint(10**7, 10**8 - 1)}") if ship else None
        parts = random_lines(rng, products, 3)
        day = rng.randint(1, 9)
        oid, orders[oid] = order(number, cid, person, parts, financial=financial, day=day, tracking=track)
        if kind == "paid":
            tracking[oid] = f"{carriers[carrier]}{rng.randint(10**8, 10**9 - 1)}"
        elif kind == "pending":
            pending = oid
    number += rng.randint(1, 9)
    # another customer's paid, unfulfilled order: not part of this request
    oid, orders[oid] = order(number, other_id, other, random_lines(rng, products, 3), financial="paid")
    value = rng.choice([10, 15, 20])
    code = f"{rng.choice(pools['codes'])}{value}"
    subtotal = round(sum(x["price"] * x["quantity"] for x in orders[pending]["lines"]), 2)
    minimum = float(min(20, int(subtotal)))
    offer = discount(code, "percentage", value, "active", rng.randint(0, 9), minimum, "2024-05-01")
    world = {"products": products, "customers": {cid: person, other_id: other}, "orders": orders}
    return {
        "world": world | {"discounts": {code: offer}},
        "customer": cid,
        "name": name,
        "email": person["email"],
        "carrier": carrier,
        "own_orders": sorted(o for o in orders if orders[o]["customer"] == cid),
        "tracking": tracking,
        "numbers": {oid: orders[oid]["number"] for oid in orders},
        "pending": pending,
        "code": code,
        "discount_amount": round(subtotal * value / 100 + 1e-9, 2),
        "tag": rng.choice(pools["tags"]),
    }


def initial_setup(P):
    hub_write("store", "set", P["world"])


def solve(P, *, mistake=None):
    import math

    state = hub_read("store", "state")["stored_state"]
    for oid, number in P["tracking"].items():
        o = state["orders"][oid]
        sent = {"carrier": P["carrier"], "tracking": number, "created": now_iso(), "notify_customer": True}
        o.update(fulfillments=[*o["fulfillments"], sent], fulfillment_status="fulfilled")
    pending = state["orders"][P["pending"]]
    if mistake != "paid_first":  # the UI hides "Apply discount" once an order is paid
        subtotal = sum(x["price"] * x["quantity"] for x in pending["lines"])
        d = state["discounts"][P["code"]]
        raw = subtotal * d["value"] / 100 if d["kind"] == "percentage" else min(d["value"], subtotal)
        rounded = math.floor(raw * 100 + 0.5) / 100  # JS Math.round
        pending["discount"] = {"code": P["code"], "amount": rounded}
        d["usage_count"] += 1
    pending["financial_status"] = "paid"
    if mistake != "untagged":
        person = state["customers"][P["customer"]]
        person["tags"] = [*person["tags"], P["tag"]]
    hub_write("store", "set_current", state)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    touched = [*P["tracking"], P["pending"]]

    @precondition("the customer's paid, unfulfilled orders are the ones the task lists")
    def world_as_described():
        orders = before["orders"]
        theirs = [oid for oid, o in orders.items() if o["customer"] == P["customer"]]
        open_paid = sorted(oid for oid in theirs if awaiting_shipment(orders[oid]))
        return open_paid == sorted(P["tracking"]) and orders[P["pending"]]["financial_status"] == "pending"

    @precondition("nothing was deleted or cancelled; every other order, customer and discount is as it was")
    def others_intact():
        keys = ("financial_status", "fulfillment_status", "discount", "cancelled", "fulfillments")
        orders_ok = unchanged_except(go, "orders", ids=touched, fields=keys)
        customers_ok = unchanged_except(go, "customers", ids=[P["customer"]])
        kept = unchanged_except(go, "discounts", ids=[P["code"]]) and P["code"] in now["discounts"]
        no_cancel = not any(now["orders"][oid]["cancelled"] for oid in touched)
        return orders_ok and customers_ok and kept and no_cancel

    @component("each paid order is fulfilled with the carrier and its own tracking number", 0.4)
    def shipped():
        def ok(oid):
            o = now["orders"][oid]
            numbers = [f["tracking"].strip() for f in o["fulfillments"] if f["carrier"] == P["carrier"]]
            return o["fulfillment_status"] == "fulfilled" and P["tracking"][oid] in numbers

        return sum(ok(oid) for oid in P["tracking"]) / len(P["tracking"])

    @component("the discount code is applied to the pending order for the right amount", 0.2)
    def discounted():
        applied = now["orders"][P["pending"]].get("discount") or {}
        amount = float(applied.get("amount", -1))
        return applied.get("code") == P["code"] and abs(amount - P["discount_amount"]) < 0.011

    @component("the pending order is marked as paid", 0.2)
    def paid():
        return now["orders"][P["pending"]]["financial_status"] == "paid"

    @component("the customer carries the new tag and keeps the old ones", 0.2)
    def tagged():
        tags = [t.strip().casefold() for t in now["customers"][P["customer"]]["tags"]]
        kept = all(t.casefold() in tags for t in before["customers"][P["customer"]]["tags"])
        return P["tag"] in tags and kept


def demonstrate(P, screen):
    """Open each paid order from the top bar's search and fulfil it (carrier, tracking number); on
    the pending order apply the code, then mark it paid; follow its customer link and add the tag."""
    for oid, tracking in P["tracking"].items():
        number = P["numbers"][oid]
        yield from open_order(screen, number)
        yield [click(button(screen, "Fulfill items"))]
        # The dialog focuses the carrier select first; a closed select picks what its typed letters start.
        in_dialog(screen, "combo-box", "Shipping carrier")
        yield [{"action": "type", "text": P["carrier"].split()[0]}]
        yield fill(screen, "entry", "Tracking number", tracking)
        yield [click(in_dialog(screen, "push-button", "Fulfill items"))]
        toast(screen, f"{number} fulfilled", timeout_s=10)
    number = P["numbers"][P["pending"]]
    yield from open_order(screen, number)
    yield [click(button(screen, "Apply discount"))]
    in_dialog(screen, "combo-box", "Code")  # it has the focus (a combo box: it lists the active codes)
    yield [{"action": "type", "text": P["code"]}]
    yield [click(in_dialog(screen, "push-button", "Apply"))]
    toast(screen, f"{P['code']} applied to {number}", timeout_s=10)
    yield [click(button(screen, "Mark as paid"))]
    toast(screen, f"{number} marked as paid", timeout_s=10)
    yield [click(screen.find(named("link", P["name"]), what=f"the customer link {P['name']}"))]
    screen.wait_until(lambda: showing(screen, "Customers"), timeout_s=15, what="the customer page")
    tags = screen.find(named("entry", "Customer tags"), what="the customer's Tags field")
    # Add after the tags already there; the field saves when it loses the focus.
    yield [
        click(tags),
        {"action": "key", "keys": ["end"]},
        {"action": "type", "text": f", {P['tag']}\t"},
    ]
    screen.find(
        lambda e: e.role == "entry" and e.name == "Customer tags" and e.text.endswith(P["tag"]),
        what="the new tag",
    )
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
