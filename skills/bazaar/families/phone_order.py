"""Bazaar: put a phone order through the shop front's cart and checkout. Data and wording: phone_order.yaml."""

from skills.bazaar.families._gui import add_to_cart
from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import option_label, records, seeded


def draw(rng, pools):
    state = seeded("bazaar")
    name = rng.choice(pools["customers"])
    (customer,) = records("bazaar", "customers", 1, rng, state, name=name)
    code = rng.choice(pools["codes"])
    percent = rng.choice([5, 10, 12, 20, 25])
    coupon = {"code": code, "percent": percent, "active": True, "note": "Phone campaign"}
    stocked = sorted(pid for pid, p in state["products"].items() if p["stock"] >= 5)
    chosen = rng.sample(stocked, rng.randint(2, 3))
    items = [
        [pid, state["products"][pid]["name"], rng.randint(1, 3), state["products"][pid]["price"]]
        for pid in chosen
    ]
    subtotal = sum(q * price for _, _, q, price in items)
    delivery = rng.choice(["express", "pickup"])  # never the default (standard)
    return {
        "world": {"customers": {customer: state["customers"][customer]}, "coupons": {"k0004": coupon}},
        "customer": customer,
        "customer_name": name,
        "code": code,
        "percent": percent,
        "items": items,
        "items_text": ", ".join(f"{q} x {n}" for _, n, q, _ in items),
        "delivery": delivery,
        "delivery_label": option_label(delivery),
        "total": int(subtotal * (100 - percent) + 0.5) / 100,
    }


def initial_setup(P):
    hub_write("bazaar", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("bazaar", "state")["stored_state"]
    quantities = [q for _, _, q, _ in P["items"]]
    if mistake == "wrong_quantity":
        quantities[0] += -1 if quantities[0] > 1 else 1
    subtotal = sum(q * item[3] for q, item in zip(quantities, P["items"], strict=True))
    percent = 0 if mistake == "no_coupon" else P["percent"]
    oid = next_id(state["orders"], "BZ", 4)
    order = {
        "number": oid,
        "customer": P["customer"],
        "status": "placed",
        "delivery": P["delivery"],
        "total": int(subtotal * (100 - percent) + 0.5) / 100,
        "placed_by": state["current_user"],
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_coupon":
        order["coupon"] = P["code"]
    state["orders"][oid] = order
    for q, (pid, _, _, price) in zip(quantities, P["items"], strict=True):
        state["order_lines"][next_id(state["order_lines"], "L", 4)] = {
            "order": oid,
            "product": pid,
            "quantity": q,
            "price": price,
        }
    hub_write("bazaar", "set_current", state)


def reward(P):
    go = hub_read("bazaar", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [oid for oid in added_ids(go, "orders") if now["orders"][oid].get("customer") == P["customer"]]
    lines = [now["order_lines"][lid] for lid in added_ids(go, "order_lines")]

    def bought(oid):
        got = {}
        for line in lines:
            if line.get("order") == oid:
                got[line["product"]] = got.get(line["product"], 0) + (line.get("quantity") or 0)
        return got

    @precondition("the customer and the coupon exist as the task describes, and no order is theirs yet")
    def world_as_described():
        coupons = [c for c in before["coupons"].values() if squash(c["code"]) == squash(P["code"])]
        return (
            P["customer"] in before["customers"]
            and len(coupons) == 1
            and coupons[0].get("active")
            and not any(o["customer"] == P["customer"] for o in before["orders"].values())
        )

    @precondition("no existing order, line, product or coupon changed, and one order at most was placed")
    def others_intact():
        return (
            all(unchanged_except(go, c) for c in ("orders", "order_lines", "products", "coupons"))
            and len(added_ids(go, "orders")) <= 1
        )

    @component("an order for the customer holds exactly the requested products and quantities", 0.5)
    def contents():
        if not new:
            return 0.0
        got, want = bought(new[0]), {pid: q for pid, _, q, _ in P["items"]}
        right = sum(got.get(pid) == q for pid, q in want.items())
        return right / len(set(got) | set(want))

    @component("its delivery is the one asked", 0.2)
    def delivery():
        return bool(new) and now["orders"][new[0]].get("delivery") == P["delivery"]

    @component(
        "the coupon is applied: its code is on the order and the total is the discounted subtotal", 0.3
    )
    def coupon():
        if not new:
            return False
        order = now["orders"][new[0]]
        subtotal = sum(line["quantity"] * line["price"] for line in lines if line.get("order") == new[0])
        expected = subtotal * (100 - P["percent"]) / 100
        return (
            squash(order.get("coupon")) == squash(P["code"])
            and abs((order.get("total") or 0) - expected) < 0.011
        )


def demonstrate(P, screen):
    """In the Shop, add each product to the cart and set its quantity; then Checkout: pick the
    customer and the delivery, type the coupon code and place the order."""
    yield from open_view(screen, "Shop")
    for _, name, quantity, _ in P["items"]:
        yield from add_to_cart(screen, name, quantity)
    yield from press(screen, "Checkout")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the Checkout dialog")
    yield from choose(screen, "Customer", P["customer_name"])
    yield from choose(screen, "Delivery", P["delivery_label"])
    yield from type_field(screen, "Coupon code", P["code"])
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Place order").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the order to be placed"
    )
    yield settle()
