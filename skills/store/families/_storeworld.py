"""Host-side builders for the store families' initial worlds (never shipped into scripts).

A world is a `set` patch deep-merged with the seeded shop (infra/hub/apps/store/seed.py: "Harbor &
Pine", products p_mug…, customers cu_01…cu_07, orders o1001…o1008 #1001…, tax 8 %). Generated
records use ids and numbers the seed does not (p_<slug>_<n>, cu_5x, o2xxx #2xxx), so the seeded
records stay and become the ones a task must leave alone.
"""

from __future__ import annotations

import random

TAX_RATE = 0.08  # the seed's store.tax_rate; rewards read it from the state instead
VENDORS = ["BasicWear", "HomeGoods", "Northline Supply", "Atlas Outfitters", "Pinecrest Living", "Urban Loom",
           "Coastal Crafts", "Meridian Home", "Oakridge Goods", "Summit Apparel"]  # fmt: skip
CATALOGUE = [  # title, type, price, description
    ("Classic T-Shirt", "Apparel", 24.0, "Soft cotton crew-neck tee in a relaxed fit."),
    ("Ceramic Mug", "Kitchen", 16.0, "Glazed 300 ml mug with a wide handle."),
    ("Leather Wallet", "Accessories", 58.0, "Slim bifold wallet in vegetable-tanned leather."),
    ("Running Shoes", "Footwear", 96.0, "Lightweight trainers with a cushioned sole."),
    ("Canvas Tote", "Accessories", 22.0, "Heavy canvas tote with an inside pocket."),
    ("Wool Beanie", "Apparel", 28.0, "Ribbed merino beanie, one size."),
    ("Bamboo Cutting Board", "Kitchen", 34.0, "Reversible bamboo board with rounded edges."),
    ("Linen Pillowcase", "Home", 39.0, "Washed linen pillowcase, 50 x 75 cm."),
    ("Scented Candle", "Fragrance", 26.0, "Soy candle with notes of fig and cedar."),
    ("Denim Jacket", "Apparel", 110.0, "Mid-wash denim jacket with brass buttons."),
    ("Glass Carafe", "Kitchen", 31.0, "One-litre borosilicate carafe with a cork stopper."),
    ("Wall Clock", "Decor", 45.0, "Silent-sweep wall clock with an oak face."),
    ("Yoga Mat", "Fitness", 52.0, "Non-slip natural rubber mat, 4 mm."),
    ("Rain Jacket", "Apparel", 88.0, "Packable waterproof shell with taped seams."),
]  # fmt: skip
FIRST = ["Amara", "Bruno", "Carmen", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Isla", "Jamal", "Keiko", "Liam"]
LAST = ["Okafor", "Lindgren", "Castillo", "Novak", "Rossi", "Haddad", "Berg", "Moreau", "Quinn", "Tanaka"]
CITIES = [("Portland", "US"), ("Toronto", "CA"), ("Dublin", "IE"), ("Lyon", "FR"), ("Leeds", "GB"), ("Austin", "US")]


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")


def product(title: str, vendor: str, kind: str, price: float, description: str, sku: str,
            stock: int, *, status: str = "active") -> dict:  # fmt: skip
    pid = f"p_{slug(title)}"
    return {"title": title, "description": description, "vendor": vendor, "type": kind, "status": status,
            "tags": [], "created": "2024-02-01", "updated_at": "2024-05-01T09:00:00Z",
            "variants": {f"v_{pid[2:]}": {"title": "Default", "sku": sku, "price": price, "compare_at": None,
                                          "inventory": stock, "options": {}}}}  # fmt: skip


def customer(rng: random.Random, used: set[str]) -> tuple[str, dict]:
    """A generated customer with a name not in `used` (updated)."""
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if f"{first} {last}" not in used:
            used.add(f"{first} {last}")
            break
    city, country = rng.choice(CITIES)
    return f"{first} {last}", {"first_name": first, "last_name": last,
                               "email": f"{first.lower()}.{last.lower()}@example.com", "phone": "",
                               "city": city, "country": country, "tags": rng.sample(["returning", "newsletter"], rng.randint(0, 1)),
                               "note": "", "accepts_marketing": rng.random() < 0.5, "created": "2024-01-20"}  # fmt: skip


def order(number: int, customer_id: str, name: str, city: str, country: str, lines: list[dict], *,
          financial: str, fulfillment: str = "unfulfilled", shipping: float = 6.0, day: int = 3,
          tracking: tuple[str, str] | None = None) -> tuple[str, dict]:  # fmt: skip
    created = f"2024-06-{day:02d}T{9 + number % 8:02d}:{number % 60:02d}:00Z"
    fulfillments = [{"carrier": tracking[0], "tracking": tracking[1], "created": created, "notify_customer": True}] \
        if tracking else []  # fmt: skip
    return f"o{number}", {"number": f"#{number}", "customer": customer_id, "created": created, "lines": lines,
                          "shipping": shipping, "discount": None, "financial_status": financial,
                          "fulfillment_status": fulfillment, "fulfillments": fulfillments, "note": "", "tags": [],
                          "cancelled": False,
                          "shipping_address": {"name": name, "line1": f"{number % 90 + 10} Harbour Road", "city": city,
                                               "zip": "00000", "country": country}}  # fmt: skip


def line(pid: str, prod: dict, quantity: int) -> dict:
    vid, variant = next(iter(prod["variants"].items()))
    return {"product": pid, "variant": vid, "title": prod["title"], "variant_title": variant["title"],
            "sku": variant["sku"], "quantity": quantity, "price": variant["price"]}  # fmt: skip


def totals(order_: dict, tax_rate: float) -> dict[str, float]:
    """The store's derived money fields (infra/hub/apps/store/router.py order_totals)."""
    subtotal = round(sum(x["price"] * x["quantity"] for x in order_["lines"]), 2)
    discount = round((order_.get("discount") or {}).get("amount", 0.0), 2)
    tax = round((subtotal - discount) * tax_rate, 2)
    return {"subtotal": subtotal, "discount": discount, "tax": tax,
            "total": round(subtotal - discount + order_.get("shipping", 0.0) + tax, 2)}  # fmt: skip
