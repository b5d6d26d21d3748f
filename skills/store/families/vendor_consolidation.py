"""Store: consolidate two suppliers under one vendor name and append a line to the description of every
affected product, leaving other vendors untouched (the paper's appendix E.2 Shopify rollout; medium)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, changed_paths, hub_read, hub_write, now_iso, removed_ids, squash
from skills.store.families._storeworld import CATALOGUE, VENDORS, product, slug
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

LINES = ["Now part of the {v} collection.", "Distributed by {v} from this season.", "Sourced and shipped by {v}.",
         "{v}: same product, one supplier."]  # fmt: skip
MERGED = ["UnifiedBrands", "Harbor Collective", "Keystone Goods", "Evergreen Supply Co"]


def initial_setup(P):
    hub_write("store", "set", P["world"])


def consolidate(P, keep_text):
    state = hub_read("store", "state")["stored_state"]
    for pid in P["targets"]:
        prod = state["products"][pid]
        prod["vendor"] = P["new_vendor"]
        prod["description"] = f"{prod['description']}\n{P['line']}" if keep_text else P["line"]
        prod["updated_at"] = now_iso()
    hub_write("store", "set_current", state)


def golden_patch(P):
    consolidate(P, True)


def near_miss(P):
    # Vendors changed, but the line replaced each description instead of being appended to it.
    consolidate(P, False)


def reward(P):
    go = hub_read("store", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the affected products are exactly those of the two old vendors")
    def world_as_described():
        return sorted(pid for pid, p in before["products"].items() if p["vendor"] in P["old_vendors"]) == sorted(P["targets"])

    @precondition("no product was deleted and other vendors' products are unchanged")
    def others_intact():
        # state_diff leaves out the volatile updated_at, so a Save that changed nothing leaves no path.
        return not removed_ids(go, "products") and not any(
            changed_paths(go, f"products.{pid}") for pid in before["products"] if pid not in P["targets"])

    @component("every product of the old vendors now has the new vendor", 0.5)
    def vendors():
        return sum(now["products"][pid]["vendor"].strip() == P["new_vendor"] for pid in P["targets"]) / len(P["targets"])

    @component("each of their descriptions keeps its text and ends with the new line", 0.5)
    def descriptions():
        def appended(pid):
            old, new = squash(before["products"][pid]["description"]), squash(now["products"][pid]["description"])
            line = squash(P["line"])
            return new.startswith(old) and new.endswith(line) and len(new) <= len(old) + len(line) + 2

        return sum(appended(pid) for pid in P["targets"]) / len(P["targets"])


class VendorConsolidation(Family):
    id = "store.vendor_consolidation"
    apps = ("store",)
    platform = Platform.WEB
    difficulty = Difficulty.MEDIUM
    leaves = ("store/catalog/products/edit_vendor", "store/catalog/products/edit_description",
              "store/catalog/browse/search_products")  # fmt: skip
    domains = (Domain.SALES, Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN, Domain.PRODUCTION)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, consolidate)
    templates = {
        Wording.IMPERATIVE: "In the store admin, change the vendor of every product whose vendor is {old_a} or "
        "{old_b} to {new}, and append the line \"{line}\" at the end of each of those products' descriptions "
        "(keep the existing text). Leave products of other vendors unchanged.",
        Wording.REQUEST: "We merged our suppliers {old_a} and {old_b} into {new}. Could you update the store admin "
        "so all their products list {new} as vendor, and add \"{line}\" as a new last line of each of those "
        "product descriptions? Please don't touch other vendors' products.",
        Wording.CONTEXTUAL: "As {persona}, I'm consolidating suppliers: {old_a} and {old_b} are now one company, "
        "{new}. In the store admin, every product from either of them needs the vendor {new} and the sentence "
        "\"{line}\" added after its current description. Products from any other vendor stay as they are.",
        Wording.GOAL: "Goal: no product in the store admin has vendor {old_a} or {old_b}; each product that had one "
        "of them now has vendor {new} and its original description followed by the line \"{line}\"; all other "
        "products are unchanged.",
        Wording.PROBLEM_FIX: "Our product pages still name {old_a} and {old_b} as vendors, but both were merged "
        "into {new}. Fix the catalogue in the store admin: set the vendor of each of their products to {new} and "
        "append \"{line}\" to its description without deleting what is there. Don't change other products.",
    }

    def draw(self, rng: random.Random) -> dict:
        vendors = rng.sample(VENDORS, 4)
        old_vendors, others = vendors[:2], vendors[2:]
        items = rng.sample(CATALOGUE, rng.randint(6, 10))
        assignment = [old_vendors[0], old_vendors[1]] + [rng.choice(vendors) for _ in items[2:]]
        rng.shuffle(assignment)
        if not any(v in others for v in assignment):
            assignment[-1] = others[0]
        products, targets = {}, []
        for (title, kind, price, desc), vendor in zip(items, assignment, strict=True):
            sku = "".join(w[0] for w in title.split()).upper() + f"-{rng.randint(100, 999)}"
            prod = product(title, vendor, kind, price, desc, sku, rng.randint(0, 80),
                           status=rng.choice(["active", "active", "draft"]))  # fmt: skip
            pid = f"p_{slug(title)}"
            products[pid] = prod
            if vendor in old_vendors:
                targets.append(pid)
        new_vendor = rng.choice(MERGED)
        return {"world": {"products": products}, "old_vendors": old_vendors, "new_vendor": new_vendor,
                "line": rng.choice(LINES).format(v=new_vendor), "targets": sorted(targets)}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"old_a": P["old_vendors"][0], "old_b": P["old_vendors"][1], "new": P["new_vendor"], "line": P["line"]}

    def context(self, P: dict) -> str:
        return (
            f"Store admin (hub app `store`). Seeded products (vendors Harbor Ceramics, Fieldhouse Textiles, ...) plus "
            f"generated products {sorted(P['world']['products'])}. Products of {P['old_vendors']}: {P['targets']}. "
            f"Expected: each target's vendor = {P['new_vendor']!r} and description = its old text followed by "
            f"{P['line']!r} (newline or space); every other product's vendor and description unchanged; none deleted."
        )
