"""Store: move two suppliers' products to one vendor name and append a line to their descriptions. Data and wording: vendor_consolidation.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, now_iso, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import button, click, named, toast
from skills.store.families._gui import fill, open_section
from skills.store.world import CATALOGUE, VENDORS, product, slug


def draw(rng, pools):
    vendors = rng.sample(VENDORS, 4)
    old_vendors, others = vendors[:2], vendors[2:]
    items = rng.sample(CATALOGUE, rng.randint(6, 10))
    assignment = [old_vendors[0], old_vendors[1]] + [rng.choice(vendors) for _ in items[2:]]
    rng.shuffle(assignment)
    if not any(v in others for v in assignment):
        assignment[-1] = others[0]
    products = {}
    for (title, kind, price, desc), vendor in zip(items, assignment, strict=True):
        sku = "".join(w[0] for w in title.split()).upper() + f"-{rng.randint(100, 999)}"
        stock, status = rng.randint(0, 80), rng.choice(["active", "active", "draft"])
        products[f"p_{slug(title)}"] = product(title, vendor, kind, price, desc, sku, stock, status=status)
    new_vendor = rng.choice(pools["merged"])
    return {
        "world": {"products": products},
        "old_vendors": old_vendors,
        "new_vendor": new_vendor,
        "line": rng.choice(pools["lines"]).format(v=new_vendor),
        "targets": sorted(pid for pid, p in products.items() if p["vendor"] in old_vendors),
    }


def initial_setup(P):
    hub_write("store", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("store", "state")["stored_state"]
    for pid in P["targets"]:
        prod = state["products"][pid]
        if mistake == "one_vendor" and prod["vendor"] != P["old_vendors"][0]:
            continue
        text = P["line"] if mistake == "replaced_text" else f"{prod['description']}\n{P['line']}"
        prod.update(vendor=P["new_vendor"], description=text, updated_at=now_iso())
    hub_write("store", "set_current", state)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]
    targets = P["targets"]

    @precondition("the affected products are exactly those of the two old vendors")
    def world_as_described():
        theirs = [pid for pid, p in before["products"].items() if p["vendor"] in P["old_vendors"]]
        return sorted(theirs) == sorted(targets)

    @precondition("no product was deleted and other vendors' products are unchanged")
    def others_intact():
        # state_diff leaves out the volatile updated_at, so a Save that changed nothing leaves no path.
        return unchanged_except(go, "products", ids=targets)

    @component("every product of the old vendors now has the new vendor", 0.5)
    def vendors():
        moved = [now["products"][pid]["vendor"].strip() == P["new_vendor"] for pid in targets]
        return sum(moved) / len(targets)

    @component("each of their descriptions keeps its text and ends with the new line", 0.5)
    def descriptions():
        line = squash(P["line"])

        def appended(pid):
            old, new = (squash(state["products"][pid]["description"]) for state in (before, now))
            return new.startswith(old) and new.endswith(line) and len(new) <= len(old) + len(line) + 2

        return sum(appended(pid) for pid in targets) / len(targets)


def demonstrate(P, screen):
    """For each old vendor: filter Products by its name, open each of its products, change the
    vendor, add the line after the description's text and Save."""
    yield from open_section(screen, "Products")
    for vendor in P["old_vendors"]:
        search = screen.find(named("entry", "Search products"), what="the product search")
        yield [click(search), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": vendor}]
        titles = [
            P["world"]["products"][pid]["title"]
            for pid in P["targets"]
            if P["world"]["products"][pid]["vendor"] == vendor
        ]
        for title in titles:
            row = screen.find(
                named("static", title),
                what=f"the row of {title}",
            )
            yield [click(row)]
            screen.find(named("heading", title), what=f"the page of {title}")
            yield fill(screen, "entry", "Vendor", P["new_vendor"])
            description = screen.find(named("entry", "Description"), what="the Description field")
            yield [
                click(description),
                {"action": "key", "keys": ["ctrl", "end"]},
                {"action": "type", "text": "\n" + P["line"]},
            ]
            yield [click(button(screen, "Save"))]
            toast(screen, "Product saved", timeout_s=10)
            yield [click(screen.find(named("link", "Back to products"), what="Back to products"))]
            screen.find(named("entry", "Search products"), what="the product list")
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
