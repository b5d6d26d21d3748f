"""Store: work through one customer's open orders: ship the paid ones with the given tracking numbers,
apply a discount to the pending one before taking payment, and tag the customer (hard: several
orders and screens; four independently scored parts; the UI hides "Apply discount" once an order
is paid, so the order of the steps matters)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, hub_read, hub_write, now_iso, removed_ids
from skills.store.families._storeworld import CATALOGUE, VENDORS, customer, line, order, product, slug, totals
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

CARRIERS = {"Parcel Express": "PX", "Postal Service": "PS", "FastFreight": "FF"}  # the UI's carrier menu
CODES = ["THANKYOU", "SORRY", "LOYAL", "COMEBACK", "VIPCARE"]
TAGS = ["priority", "key-account", "vip-care"]


def initial_setup(P):
    hub_write("store", "set", P["world"])


def process(P, discount_first):
    import math

    state = hub_read("store", "state")["stored_state"]
    stamp = now_iso()
    for oid, tracking in P["tracking"].items():
        o = state["orders"][oid]
        o["fulfillments"] = [*o["fulfillments"], {"carrier": P["carrier"], "tracking": tracking, "created": stamp,
                                                  "notify_customer": True}]  # fmt: skip
        o["fulfillment_status"] = "fulfilled"
    pending = state["orders"][P["pending"]]
    if discount_first:
        subtotal = sum(x["price"] * x["quantity"] for x in pending["lines"])
        d = state["discounts"][P["code"]]
        raw = subtotal * d["value"] / 100 if d["kind"] == "percentage" else min(d["value"], subtotal)
        pending["discount"] = {"code": P["code"], "amount": math.floor(raw * 100 + 0.5) / 100}  # JS Math.round
        d["usage_count"] += 1
    pending["financial_status"] = "paid"
    person = state["customers"][P["customer"]]
    person["tags"] = [*person["tags"], P["tag"]]
    hub_write("store", "set_current", state)


def golden_patch(P):
    process(P, True)


def near_miss(P):
    # Payment taken before the code was applied: the discount can no longer be added.
    process(P, False)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    touched = {*P["tracking"], P["pending"]}

    @precondition("the customer's paid, unfulfilled orders are the ones the task lists")
    def world_as_described():
        open_paid = sorted(oid for oid, o in before["orders"].items() if o["customer"] == P["customer"]
                           and o["financial_status"] == "paid" and o["fulfillment_status"] == "unfulfilled"
                           and not o["cancelled"])  # fmt: skip
        return open_paid == sorted(P["tracking"]) and before["orders"][P["pending"]]["financial_status"] == "pending"

    @precondition("no order was deleted or cancelled and every other order is as it was")
    def others_intact():
        keys = ("financial_status", "fulfillment_status", "discount", "cancelled", "fulfillments")
        return not removed_ids(go, "orders") and not removed_ids(go, "customers") and all(
            not now["orders"][oid]["cancelled"] for oid in touched) and all(
            all(now["orders"][oid][k] == o[k] for k in keys) for oid, o in before["orders"].items() if oid not in touched)  # fmt: skip

    @component("each paid order is fulfilled with the carrier and its own tracking number", 0.4)
    def shipped():
        def ok(oid):
            o = now["orders"][oid]
            return o["fulfillment_status"] == "fulfilled" and any(
                f["carrier"] == P["carrier"] and f["tracking"].strip() == P["tracking"][oid] for f in o["fulfillments"])

        return sum(ok(oid) for oid in P["tracking"]) / len(P["tracking"])

    @component("the discount code is applied to the pending order for the right amount", 0.2)
    def discounted():
        applied = now["orders"][P["pending"]].get("discount") or {}
        return applied.get("code") == P["code"] and abs(float(applied.get("amount", -1)) - P["discount_amount"]) < 0.011

    @component("the pending order is marked as paid", 0.2)
    def paid():
        return now["orders"][P["pending"]]["financial_status"] == "paid"

    @component("the customer carries the new tag and keeps the old ones", 0.2)
    def tagged():
        tags = [t.strip().casefold() for t in now["customers"][P["customer"]]["tags"]]
        return P["tag"] in tags and all(t.casefold() in tags for t in before["customers"][P["customer"]]["tags"])


class CustomerOrders(Family):
    id = "store.customer_orders"
    apps = ("store",)
    platform = Platform.WEB
    difficulty = Difficulty.HARD
    leaves = ("store/orders/fulfillment/fulfill_order", "store/orders/payment/apply_discount",
              "store/orders/payment/mark_paid", "store/customers/profile/tag_customer")  # fmt: skip
    domains = (Domain.SALES, Domain.OFFICE_ADMIN, Domain.TRANSPORTATION, Domain.BUSINESS_FINANCE)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, process)
    templates = {
        Wording.IMPERATIVE: "In the store admin, handle {name}'s open orders. Fulfil each of their paid, unfulfilled "
        "orders with {carrier}: {tracking}. Apply the discount code {code} to their pending order {pending}, then mark "
        "that order as paid. Finally add the tag \"{tag}\" to {name}'s customer profile.",
        Wording.REQUEST: "{name} ({email}) called about their orders. Could you ship the paid ones via {carrier} "
        "({tracking}), give them {code} on the pending order {pending} before marking it paid, and tag their "
        "customer record \"{tag}\"?",
        Wording.CONTEXTUAL: "As {persona}, I promised {name} we would sort out their orders today. Please use the "
        "store admin to fulfil their paid orders that haven't shipped, with {carrier} and these tracking numbers: "
        "{tracking}. Their order {pending} is still unpaid: apply the code {code} first, then mark it as paid. Tag "
        "{name} as \"{tag}\" so the team knows.",
        Wording.GOAL: "Goal: in the store admin, {name}'s orders {numbers} are fulfilled via {carrier} with tracking "
        "numbers {tracking}; order {pending} has the discount {code} applied and is paid; {name}'s customer profile "
        "has the tag \"{tag}\". Other orders are unchanged.",
        Wording.PROBLEM_FIX: "{name}'s paid orders are stuck as unfulfilled and their order {pending} was never "
        "charged with the {code} discount they were promised. Fix it in the store admin: fulfil the paid orders via "
        "{carrier} ({tracking}), apply {code} to {pending} and then mark it paid, and tag the customer \"{tag}\".",
    }

    def draw(self, rng: random.Random) -> dict:
        used: set[str] = set()
        name, person = customer(rng, used)
        other_name, other = customer(rng, used)
        cid, other_id = f"cu_{rng.randint(50, 69)}", f"cu_{rng.randint(70, 89)}"
        items = rng.sample(CATALOGUE, 5)
        products = {f"p_{slug(t)}": product(t, rng.choice(VENDORS), k, p, d, f"SKU-{i:03d}", 30)
                    for i, (t, k, p, d) in enumerate(items, start=1)}  # fmt: skip
        pids = list(products)

        def lines():
            return [line(pid, products[pid], rng.randint(1, 3)) for pid in rng.sample(pids, rng.randint(1, 3))]

        number = rng.randint(20, 60) * 100
        orders, tracking = {}, {}
        carrier = rng.choice(sorted(CARRIERS))
        plan = ["paid"] * rng.randint(2, 3) + ["pending", "shipped", rng.choice(["refunded", "shipped"])]
        rng.shuffle(plan)
        pending = None
        for kind in plan:
            number += rng.randint(1, 9)
            financial = {"paid": "paid", "pending": "pending", "shipped": "paid", "refunded": "refunded"}[kind]
            fulfilment = "fulfilled" if kind == "shipped" else "unfulfilled"
            track = (rng.choice(sorted(CARRIERS)), f"ZX{rng.randint(10**7, 10**8 - 1)}") if kind == "shipped" else None
            oid, o = order(number, cid, name, person["city"], person["country"], lines(), financial=financial,
                           fulfillment=fulfilment, day=rng.randint(1, 9), tracking=track)  # fmt: skip
            orders[oid] = o
            if kind == "paid":
                tracking[oid] = f"{CARRIERS[carrier]}{rng.randint(10**8, 10**9 - 1)}"
            elif kind == "pending":
                pending = oid
        number += rng.randint(1, 9)
        oid, o = order(number, other_id, other_name, other["city"], other["country"], lines(), financial="paid")
        orders[oid] = o  # another customer's paid, unfulfilled order: not part of this request
        value = rng.choice([10, 15, 20])
        code = f"{rng.choice(CODES)}{value}"
        subtotal = totals(orders[pending], 0.0)["subtotal"]
        discounts = {code: {"code": code, "kind": "percentage", "value": value, "status": "active",
                            "min_subtotal": float(min(20, int(subtotal))), "usage_count": rng.randint(0, 9),
                            "usage_limit": None, "starts": "2024-05-01", "ends": None}}  # fmt: skip
        world = {"products": products, "customers": {cid: person, other_id: other}, "orders": orders,
                 "discounts": discounts}  # fmt: skip
        return {
            "world": world, "customer": cid, "name": name, "email": person["email"], "carrier": carrier,
            "own_orders": sorted(o for o in orders if orders[o]["customer"] == cid),
            "tracking": tracking, "numbers": {oid: orders[oid]["number"] for oid in orders}, "pending": pending,
            "code": code, "discount_amount": round(subtotal * value / 100 + 1e-9, 2), "tag": rng.choice(TAGS),
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        numbers = P["numbers"]
        tracking = ", ".join(f"{t} for {numbers[oid]}" for oid, t in P["tracking"].items())
        own = [numbers[oid] for oid in P["tracking"]]
        return {"name": P["name"], "email": P["email"], "carrier": P["carrier"], "tracking": tracking,
                "numbers": ", ".join(own[:-1]) + " and " + own[-1], "code": P["code"],
                "pending": numbers[P["pending"]], "tag": P["tag"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Store admin (hub app `store`), tax 8 %. Seeded shop plus customer {P['customer']} ({P['name']}) with "
            f"orders {P['own_orders']}: paid+unfulfilled "
            f"{sorted(P['tracking'])}, pending {P['pending']}, plus already-fulfilled/refunded ones; another customer "
            f"has a paid unfulfilled order. Discount {P['code']} is active. Expected: each of {sorted(P['tracking'])} "
            f"fulfilled with a fulfilment {{carrier: {P['carrier']}, tracking: its number {P['tracking']}}}; "
            f"{P['pending']}.discount = {{code: {P['code']}, amount: {P['discount_amount']}}} and financial_status paid; "
            f"customers.{P['customer']}.tags gains {P['tag']!r}; all other orders unchanged."
        )
