"""Host-side builders for the store families' initial worlds (never shipped into scripts).

A world is a `set` patch deep-merged with the seeded shop (infra/hub/apps/store/seed.py: "Harbor &
Pine", products p_mug…, customers cu_01…cu_07, orders o1001…o1008 #1001…, tax 8 %). Generated
records use ids and numbers the seed does not (p_<slug>_<n>, cu_5x, o2xxx #2xxx), so the seeded
records stay and become the ones a task must leave alone.
"""

from __future__ import annotations

import random

from infra.hub.apps.store.seed import default_state
from skills.kit.guest.hub import awaiting_shipment, order_total

TAX_RATE = 0.08  # the seed's store.tax_rate; rewards read it from the state instead
VENDORS = [
    "BasicWear",
    "HomeGoods",
    "Northline Supply",
    "Atlas Outfitters",
    "Pinecrest Living",
    "Urban Loom",
    "Coastal Crafts",
    "Meridian Home",
    "Oakridge Goods",
    "Summit Apparel",
]
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
]
FIRST = [
    "Amara",
    "Bruno",
    "Carmen",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Isla",
    "Jamal",
    "Keiko",
    "Liam",
]
LAST = ["Okafor", "Lindgren", "Castillo", "Novak", "Rossi", "Haddad", "Berg", "Moreau", "Quinn", "Tanaka"]
CITIES = [
    ("Portland", "US"),
    ("Toronto", "CA"),
    ("Dublin", "IE"),
    ("Lyon", "FR"),
    ("Leeds", "GB"),
    ("Austin", "US"),
]


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")


def product(
    title: str,
    vendor: str,
    kind: str,
    price: float,
    description: str,
    sku: str,
    stock: int,
    *,
    status: str = "active",
) -> dict:
    pid = f"p_{slug(title)}"
    return {
        "title": title,
        "description": description,
        "vendor": vendor,
        "type": kind,
        "status": status,
        "tags": [],
        "created": "2024-02-01",
        "updated_at": "2024-05-01T09:00:00Z",
        "variants": {
            f"v_{pid[2:]}": {
                "title": "Default",
                "sku": sku,
                "price": price,
                "compare_at": None,
                "inventory": stock,
                "options": {},
            }
        },
    }


def customer(rng: random.Random, used: set[str]) -> tuple[str, dict]:
    """A generated customer with a name not in `used` (updated)."""
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if f"{first} {last}" not in used:
            used.add(f"{first} {last}")
            break
    city, country = rng.choice(CITIES)
    return f"{first} {last}", {
        "first_name": first,
        "last_name": last,
        "email": f"{first.lower()}.{last.lower()}@example.com",
        "phone": "",
        "city": city,
        "country": country,
        "tags": rng.sample(["returning", "newsletter"], rng.randint(0, 1)),
        "note": "",
        "accepts_marketing": rng.random() < 0.5,
        "created": "2024-01-20",
    }


def order(
    number: int,
    customer_id: str,
    person: dict,
    lines: list[dict],
    *,
    financial: str,
    shipping: float = 6.0,
    day: int = 3,
    tracking: tuple[str, str] | None = None,
) -> tuple[str, dict]:
    """Order #`number` of `person` (a `customer` record); fulfilled, with one fulfilment, when `tracking`
    (carrier, number) is given."""
    name, city, country = f"{person['first_name']} {person['last_name']}", person["city"], person["country"]
    fulfillment = "fulfilled" if tracking else "unfulfilled"
    created = f"2024-06-{day:02d}T{9 + number % 8:02d}:{number % 60:02d}:00Z"
    fulfillments = (
        [{"carrier": tracking[0], "tracking": tracking[1], "created": created, "notify_customer": True}]
        if tracking
        else []
    )
    return f"o{number}", {
        "number": f"#{number}",
        "customer": customer_id,
        "created": created,
        "lines": lines,
        "shipping": shipping,
        "discount": None,
        "financial_status": financial,
        "fulfillment_status": fulfillment,
        "fulfillments": fulfillments,
        "note": "",
        "tags": [],
        "cancelled": False,
        "shipping_address": {
            "name": name,
            "line1": f"{number % 90 + 10} Harbour Road",
            "city": city,
            "zip": "00000",
            "country": country,
        },
    }


def discount(
    code: str,
    kind: str,
    value: float,
    status: str,
    used: int,
    min_subtotal: float = 0.0,
    starts: str | None = None,
    ends: str | None = None,
) -> dict:
    return {
        "code": code,
        "kind": kind,
        "value": value,
        "status": status,
        "min_subtotal": min_subtotal,
        "usage_count": used,
        "usage_limit": None,
        "starts": starts,
        "ends": ends,
    }


def catalogue_products(rng: random.Random, n: int, sku_prefix: str, stock: int) -> dict[str, dict]:
    """`n` catalogue products with random vendors: ids p_<slug>, SKUs <sku_prefix>-001…"""
    items = rng.sample(CATALOGUE, n)
    return {
        f"p_{slug(t)}": product(t, rng.choice(VENDORS), k, p, d, f"{sku_prefix}-{i:03d}", stock)
        for i, (t, k, p, d) in enumerate(items, start=1)
    }


def random_lines(rng: random.Random, products: dict[str, dict], most: int) -> list[dict]:
    """One to three order lines over distinct `products`, 1..`most` of each."""
    return [
        line(pid, products[pid], rng.randint(1, most))
        for pid in rng.sample(list(products), rng.randint(1, 3))
    ]


def line(pid: str, prod: dict, quantity: int) -> dict:
    vid, variant = next(iter(prod["variants"].items()))
    return {
        "product": pid,
        "variant": vid,
        "title": prod["title"],
        "variant_title": variant["title"],
        "sku": variant["sku"],
        "quantity": quantity,
        "price": variant["price"],
    }


def picking_rows(world: dict) -> list[dict]:
    """The paid, unfulfilled, not cancelled orders of the seeded shop merged with `world`, by number, as
    {number, email, items, total}: the picking list a task asks for (P pins it)."""
    seed = default_state()
    customers, orders = seed["customers"] | world["customers"], seed["orders"] | world["orders"]
    picked = [o for o in orders.values() if awaiting_shipment(o)]
    return [
        {
            "number": o["number"],
            "email": customers[o["customer"]]["email"],
            "items": sum(x["quantity"] for x in o["lines"]),
            "total": order_total(o, seed["store"]["tax_rate"]),
        }
        for o in sorted(picked, key=lambda o: int(o["number"].lstrip("#")))
    ]
