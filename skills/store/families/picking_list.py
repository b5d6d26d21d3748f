"""Store -> Calc: list the paid, unfulfilled orders in a picking sheet and tag them. Data and wording: picking_list.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.hub import awaiting_shipment, hub_read, hub_write, order_total, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named, save_keeping_format
from skills.store.families._gui import open_order
from skills.store.world import catalogue_products, customer, order, picking_rows, random_lines


def draw(rng, pools):
    used = set()
    people = {f"cu_{60 + n}": customer(rng, used)[1] for n in range(rng.randint(3, 5))}
    products = catalogue_products(rng, 6, "PL", 40)
    kinds = ["open"] * rng.randint(2, 4) + rng.sample(["pending", "shipped", "refunded", "cancelled"], 3)
    rng.shuffle(kinds)
    orders, number = {}, rng.randint(30, 80) * 100
    for kind in kinds:
        number += rng.randint(1, 7)
        cid = rng.choice(sorted(people))
        parts = random_lines(rng, products, 4)
        financial = {"pending": "pending", "refunded": "refunded"}.get(kind, "paid")
        extra = {"shipping": rng.choice([0.0, 6.0, 9.5]), "day": rng.randint(1, 9)}
        track = ("Parcel Express", f"PX{rng.randint(10**7, 10**8 - 1)}") if kind == "shipped" else None
        oid, o = order(number, cid, people[cid], parts, financial=financial, tracking=track, **extra)
        orders[oid] = o | {"cancelled": kind == "cancelled"}
    world = {"products": products, "customers": people, "orders": orders}
    return {
        "world": world,
        "expected": picking_rows(world),
        "xlsx": f"Documents/picking_list_06{rng.randint(10, 28)}.xlsx",
        "sheet": rng.choice(["Picking", "To ship", "Orders"]),
        "header": pools["header"],
        "tag": rng.choice(["picking", "in-picking", "wave-1"]),
    }


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


def solve(P, *, mistake=None):
    import openpyxl

    state = hub_read("store", "state")["stored_state"]
    path = HOME / P["xlsx"]
    wb = openpyxl.load_workbook(path)
    for o in sorted(state["orders"].values(), key=lambda o: int(o["number"].lstrip("#"))):
        if awaiting_shipment(o) or mistake == "paid_only" and o["financial_status"] == "paid":
            email = state["customers"].get(o["customer"] or "", {}).get("email", "")
            total = order_total(o, state["store"]["tax_rate"])
            wb[P["sheet"]].append([o["number"], email, sum(x["quantity"] for x in o["lines"]), total])
        if mistake != "untagged" and awaiting_shipment(o):
            o["tags"] = [*o["tags"], P["tag"]]
    wb.save(path)
    hub_write("store", "set_current", state)


def reward(P):
    import openpyxl

    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    expected = {row["number"].lstrip("#"): row for row in P["expected"]}
    picked = [oid for oid, o in before["orders"].items() if o["number"].lstrip("#") in expected]
    book = {}

    def sheet():
        if "ws" not in book:
            wb = openpyxl.load_workbook(HOME / P["xlsx"], data_only=True)
            found = [ws for ws in wb.worksheets if ws.title.strip().casefold() == P["sheet"].casefold()]
            book["ws"] = found[0] if found else wb.worksheets[0]
        return book["ws"]

    def key(value):
        value = int(value) if isinstance(value, float) and value.is_integer() else value
        return str(value or "").strip().lstrip("#").strip()

    def rows():
        ws = sheet()
        cells = [[ws.cell(row=r, column=c).value for c in range(1, 5)] for r in range(2, ws.max_row + 1)]
        return {key(row[0]): row[1:] for row in cells if key(row[0])}

    def number(value):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value).replace("$", "").replace(",", "").strip())
        except ValueError:
            return None

    @precondition("the paid, unfulfilled orders are the ones the task was built on")
    def world_as_described():
        numbers = [o["number"].lstrip("#") for o in before["orders"].values() if awaiting_shipment(o)]
        return sorted(numbers) == sorted(expected)

    @precondition("the header is kept; no order was shipped, charged, cancelled, deleted or wrongly tagged")
    def others_intact():
        ws = sheet()
        header = [str(ws.cell(row=1, column=c).value or "").strip().casefold() for c in range(1, 5)]
        keys = ("financial_status", "fulfillment_status", "cancelled", "discount")
        orders_ok = unchanged_except(go, "orders", fields=keys)
        orders_ok = orders_ok and unchanged_except(go, "orders", ids=picked, fields=("tags",))
        return orders_ok and header == [h.casefold() for h in P["header"]]

    @component("the sheet lists exactly the paid, unfulfilled orders", 0.35)
    def listed():
        found = set(rows())
        return len(found & set(expected)) / len(found | set(expected))

    @component("each listed order has the right customer email, item count and total", 0.35)
    def details():
        got, score = rows(), 0.0
        for number_, row in expected.items():  # a missing row scores nothing
            email, items, total = got.get(number_, [None] * 3)
            score += (str(email or "").strip().casefold() == row["email"].casefold()) / 3
            score += (number(items) is not None and abs(number(items) - row["items"]) < 1e-6) / 3
            score += (number(total) is not None and abs(number(total) - row["total"]) < 0.011) / 3
        return score / len(expected)

    @component("each of those orders is tagged in the store admin", 0.3)
    def tagged():
        tags = [[t.strip().casefold() for t in now["orders"][oid]["tags"]] for oid in picked]
        return sum(P["tag"] in these for these in tags) / len(picked)


def demonstrate(P, screen):
    """Calc is on top with the template: type one row per order under the header (Tab between the
    cells, Enter back to column A), save keeping xlsx; then switch to the store admin and tag each
    of those orders from its page."""
    name = P["xlsx"].rsplit("/", 1)[-1]
    screen.wait_until(
        lambda: screen.has_window(f"{name} - LibreOffice Calc"), what="the picking list in Calc"
    )
    yield [{"action": "key", "keys": ["ctrl", "home"]}, {"action": "key", "keys": ["down"]}]
    for row in P["expected"]:
        yield [
            {
                "action": "type",
                "text": f"{row['number']}\t{row['email']}\t{row['items']}\t{row['total']:.2f}\n",
            }
        ]
    yield from save_keeping_format(screen)
    # Chromium is the only other window: Alt+Tab raises it (the tree lists it even while it is behind).
    yield [
        {"action": "wait", "time": 1.0},
        {"action": "key", "keys": ["alt", "tab"]},
        {"action": "wait", "time": 1.0},
    ]
    for row in P["expected"]:
        yield from open_order(screen, row["number"])
        tags = screen.find(named("entry", "Order tags"), what="the order's Tags field")
        # Add after the tags already there; the field saves when it loses the focus.
        yield [click(tags), {"action": "key", "keys": ["end"]}, {"action": "type", "text": f", {P['tag']}\t"}]
        screen.find(
            lambda e: e.role == "entry" and e.name == "Order tags" and e.text.endswith(P["tag"]),
            what="the new tag",
        )
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
