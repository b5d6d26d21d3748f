"""Cross-app (store -> Calc): build the warehouse picking list: every paid, unfulfilled, not cancelled
order goes into a Calc sheet with its customer email, item count and total, and each listed order is
tagged in the store admin (hard: the agent must find the orders, compute or read totals, and work in
both apps; three independently scored parts)."""

from __future__ import annotations

import random

from infra.hub.apps.store.seed import default_state
from skills._web.hubkit import WEB_HELPERS, hub_read, hub_write, removed_ids
from skills.store.families._storeworld import CATALOGUE, VENDORS, customer, line, order, product, slug, totals
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

HEADER = ["Order", "Customer email", "Items", "Total"]


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    hub_write("store", "set", P["world"])
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["header"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.column_dimensions["B"].width = 32
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def build_list(P, tag):
    import openpyxl

    state = hub_read("store", "state")["stored_state"]
    rate = state["store"]["tax_rate"]
    picked = sorted((o for o in state["orders"].values() if o["financial_status"] == "paid"
                     and o["fulfillment_status"] == "unfulfilled" and not o["cancelled"]),
                    key=lambda o: int(o["number"].lstrip("#")))  # fmt: skip
    path = HOME / P["xlsx"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    for o in picked:
        subtotal = round(sum(x["price"] * x["quantity"] for x in o["lines"]), 2)
        discount = round((o.get("discount") or {}).get("amount", 0.0), 2)
        tax = round((subtotal - discount) * rate, 2)
        email = state["customers"].get(o["customer"] or "", {}).get("email", "")
        ws.append([o["number"], email, sum(x["quantity"] for x in o["lines"]),
                   round(subtotal - discount + o.get("shipping", 0.0) + tax, 2)])  # fmt: skip
        if tag:
            o["tags"] = [*o["tags"], P["tag"]]
    wb.save(path)
    hub_write("store", "set_current", state)


def golden_patch(P):
    build_list(P, True)


def near_miss(P):
    # The sheet is complete, but the orders were never tagged in the store.
    build_list(P, False)


def reward(P):
    import openpyxl

    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    expected = {row["number"].lstrip("#"): row for row in P["expected"]}
    book = {}

    def sheet():
        if "ws" not in book:
            wb = openpyxl.load_workbook(HOME / P["xlsx"], data_only=True)
            found = [ws for ws in wb.worksheets if ws.title.strip().casefold() == P["sheet"].casefold()]
            book["ws"] = found[0] if found else wb.worksheets[0]
        return book["ws"]

    def key(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value or "").strip().lstrip("#").strip()

    def rows():
        ws = sheet()
        return {key(ws.cell(row=r, column=1).value): [ws.cell(row=r, column=c).value for c in (2, 3, 4)]
                for r in range(2, ws.max_row + 1) if key(ws.cell(row=r, column=1).value)}  # fmt: skip

    def number(value):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value).replace("$", "").replace(",", "").strip())
        except ValueError:
            return None

    @precondition("the paid, unfulfilled orders are the ones the task was built on")
    def world_as_described():
        open_paid = sorted(o["number"].lstrip("#") for o in before["orders"].values() if o["financial_status"] == "paid"
                           and o["fulfillment_status"] == "unfulfilled" and not o["cancelled"])  # fmt: skip
        return open_paid == sorted(expected)

    @precondition("the sheet keeps its header; no order was shipped, charged, cancelled, deleted or wrongly tagged")
    def others_intact():
        ws = sheet()
        header = [str(ws.cell(row=1, column=c).value or "").strip().casefold() for c in range(1, 5)]
        keys = ("financial_status", "fulfillment_status", "cancelled", "discount")
        return header == [h.casefold() for h in P["header"]] and not removed_ids(go, "orders") and all(
            now["orders"][oid][k] == o[k] for oid, o in before["orders"].items() for k in keys) and all(
            now["orders"][oid]["tags"] == o["tags"] for oid, o in before["orders"].items()
            if o["number"].lstrip("#") not in expected)  # fmt: skip

    @component("the sheet lists exactly the paid, unfulfilled orders", 0.35)
    def listed():
        found = set(rows())
        return len(found & set(expected)) / len(found | set(expected))

    @component("each listed order has the right customer email, item count and total", 0.35)
    def details():
        got = rows()
        score = 0.0
        for number_, row in expected.items():
            if number_ not in got:
                continue
            email, items, total = got[number_]
            score += (str(email or "").strip().casefold() == row["email"].casefold()) / 3
            score += (number(items) is not None and abs(number(items) - row["items"]) < 1e-6) / 3
            score += (number(total) is not None and abs(number(total) - row["total"]) < 0.011) / 3
        return score / len(expected)

    @component("each of those orders is tagged in the store admin", 0.3)
    def tagged():
        by_number = {o["number"].lstrip("#"): o for o in now["orders"].values()}
        return sum(P["tag"] in [t.strip().casefold() for t in by_number[n]["tags"]] for n in expected) / len(expected)


class PickingList(Family):
    id = "store.picking_list"
    apps = ("store", "calc")
    platform = Platform.CROSS
    difficulty = Difficulty.HARD
    leaves = ("store/orders/browse/filter_orders", "store/orders/organize/tag_order",
              "calc/editing/cells/enter_values")  # fmt: skip
    domains = (Domain.TRANSPORTATION, Domain.SALES, Domain.OFFICE_ADMIN, Domain.PRODUCTION)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, build_list)
    templates = {
        Wording.IMPERATIVE: "Fill in the picking list {xlsx} (sheet {sheet}) in Calc with one row per store order "
        "that is paid, not yet fulfilled and not cancelled: its order number, the customer's email, the number of "
        "items and the order total, under the existing header row. Save it as xlsx. Then add the tag \"{tag}\" to "
        "each of those orders in the store admin.",
        Wording.REQUEST: "Could you prepare today's picking list? Look up every paid order in the store admin that "
        "hasn't been fulfilled (ignore cancelled ones), list each in {xlsx} on the {sheet} sheet (order number, "
        "customer email, items, total, one row each under the header), keep it as xlsx, and tag those orders "
        "\"{tag}\" in the store.",
        Wording.CONTEXTUAL: "As {persona}, I hand the warehouse a picking list every morning. The template is "
        "{xlsx}, sheet {sheet}, with the columns Order, Customer email, Items and Total. Put every order from the "
        "store admin that is paid but unfulfilled (not the cancelled ones) in it, one row per order, and save the "
        "xlsx. Mark each of those orders with the tag \"{tag}\" in the store so nobody picks them twice.",
        Wording.GOAL: "Goal: {xlsx} (sheet {sheet}) lists, under its header, exactly the store orders that are "
        "paid, unfulfilled and not cancelled, one row each with order number, customer email, item count and order "
        "total, saved as xlsx; each of those orders carries the tag \"{tag}\" in the store admin.",
        Wording.PROBLEM_FIX: "The warehouse didn't ship anything yesterday because {xlsx} is still empty. Fix it: "
        "on sheet {sheet}, add a row for each paid, unfulfilled, not cancelled order in the store admin (order "
        "number, customer email, items, total) and save the xlsx; then tag each of those orders \"{tag}\" in the "
        "store.",
    }

    def draw(self, rng: random.Random) -> dict:
        used: set[str] = set()
        people = {}
        for n in range(rng.randint(3, 5)):
            name, record = customer(rng, used)
            people[f"cu_{60 + n}"] = (name, record)
        items = rng.sample(CATALOGUE, 6)
        products = {f"p_{slug(t)}": product(t, rng.choice(VENDORS), k, p, d, f"PL-{i:03d}", 40)
                    for i, (t, k, p, d) in enumerate(items, start=1)}  # fmt: skip
        pids = list(products)
        kinds = ["open"] * rng.randint(2, 4) + rng.sample(["pending", "shipped", "refunded", "cancelled"], 3)
        rng.shuffle(kinds)
        orders, number = {}, rng.randint(30, 80) * 100
        for kind in kinds:
            number += rng.randint(1, 7)
            cid = rng.choice(sorted(people))
            name, record = people[cid]
            lines = [line(pid, products[pid], rng.randint(1, 4)) for pid in rng.sample(pids, rng.randint(1, 3))]
            financial = {"open": "paid", "pending": "pending", "shipped": "paid", "refunded": "refunded",
                         "cancelled": "paid"}[kind]  # fmt: skip
            oid, o = order(number, cid, name, record["city"], record["country"], lines, financial=financial,
                           fulfillment="fulfilled" if kind == "shipped" else "unfulfilled",
                           shipping=rng.choice([0.0, 6.0, 9.5]), day=rng.randint(1, 9),
                           tracking=("Parcel Express", f"PX{rng.randint(10**7, 10**8 - 1)}") if kind == "shipped" else None)  # fmt: skip
            o["cancelled"] = kind == "cancelled"
            orders[oid] = o
        world = {"products": products, "customers": {cid: rec for cid, (_, rec) in people.items()}, "orders": orders}
        return {"world": world, "expected": expected_rows(world), "xlsx": f"Documents/picking_list_06{rng.randint(10, 28)}.xlsx",
                "sheet": rng.choice(["Picking", "To ship", "Orders"]), "header": HEADER,
                "tag": rng.choice(["picking", "in-picking", "wave-1"])}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"xlsx": "~/" + P["xlsx"], "sheet": P["sheet"], "tag": P["tag"]}

    def context(self, P: dict) -> str:
        rows = [(r["number"], r["email"], r["items"], r["total"]) for r in P["expected"]]
        return (
            f"Store admin (hub app `store`, tax 8 %): seeded shop plus generated customers, products and orders "
            f"{sorted(P['world']['orders'])} in every state (one paid order is cancelled). ~/{P['xlsx']} has sheet "
            f"{P['sheet']!r} with only the header {P['header']}. Paid, unfulfilled, not cancelled orders (seeded and "
            f"generated), as (number, email, items, total): {rows}. Expected: exactly those rows under the header "
            f"(order number with or without '#', numbers as numbers or numeric text), saved as xlsx; each of those "
            f"orders' tags gain {P['tag']!r}; no order's payment, fulfilment, cancellation or discount changes; other "
            f"orders' tags unchanged."
        )


def expected_rows(world: dict) -> list[dict]:
    """The picking list the task asks for over the seeded shop merged with `world` (host side: P pins it)."""
    seed = default_state()
    customers = seed["customers"] | world["customers"]
    orders = seed["orders"] | world["orders"]
    rate = seed["store"]["tax_rate"]
    picked = [o for o in orders.values() if o["financial_status"] == "paid" and o["fulfillment_status"] == "unfulfilled"
              and not o["cancelled"]]  # fmt: skip
    return [{"number": o["number"], "email": customers[o["customer"]]["email"],
             "items": sum(x["quantity"] for x in o["lines"]), "total": totals(o, rate)["total"]}
            for o in sorted(picked, key=lambda o: int(o["number"].lstrip("#")))]  # fmt: skip
