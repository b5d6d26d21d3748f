"""Deterministic default store: a small home-goods shop with orders in every state."""

from __future__ import annotations

from typing import Any

PRODUCTS = [  # id, title, vendor, type, status, tags, description, variants: (id, title, sku, price, compare, stock, options)
    (
        "p_mug",
        "Stoneware Mug",
        "Harbor Ceramics",
        "Kitchen",
        "active",
        ["bestseller", "ceramics"],
        "Hand-glazed 350 ml stoneware mug. Dishwasher safe.",
        [
            ("v_mug_sand", "Sand", "MUG-SND", 18.0, None, 42, {"Color": "Sand"}),
            ("v_mug_slate", "Slate", "MUG-SLT", 18.0, None, 7, {"Color": "Slate"}),
            ("v_mug_moss", "Moss", "MUG-MOS", 18.0, 22.0, 0, {"Color": "Moss"}),
        ],
    ),
    (
        "p_throw",
        "Merino Throw Blanket",
        "Fieldhouse Textiles",
        "Home",
        "active",
        ["wool", "gift"],
        "A 130 x 170 cm throw woven from soft merino wool.",
        [
            ("v_throw_oat", "Oat", "THR-OAT", 129.0, None, 12, {"Color": "Oat"}),
            ("v_throw_rust", "Rust", "THR-RST", 129.0, 149.0, 3, {"Color": "Rust"}),
        ],
    ),
    (
        "p_candle",
        "Cedar & Smoke Candle",
        "Lumen Works",
        "Fragrance",
        "active",
        ["candle"],
        "Soy wax candle with a 45 hour burn time.",
        [
            ("v_candle_s", "Small / 180 g", "CND-S", 24.0, None, 60, {"Size": "Small"}),
            ("v_candle_l", "Large / 400 g", "CND-L", 42.0, None, 25, {"Size": "Large"}),
        ],
    ),
    (
        "p_board",
        "Walnut Serving Board",
        "Grain & Co",
        "Kitchen",
        "active",
        ["wood"],
        "Oiled walnut board, 45 x 20 cm, with a juice groove.",
        [("v_board", "Default", "BRD-WAL", 68.0, None, 9, {})],
    ),
    (
        "p_linen",
        "Linen Napkins (Set of 4)",
        "Fieldhouse Textiles",
        "Kitchen",
        "active",
        ["linen", "gift"],
        "Stonewashed linen napkins, 45 x 45 cm.",
        [
            ("v_linen_white", "White", "NAP-WHT", 36.0, None, 30, {"Color": "White"}),
            ("v_linen_sage", "Sage", "NAP-SGE", 36.0, None, 18, {"Color": "Sage"}),
        ],
    ),
    (
        "p_vase",
        "Ribbed Glass Vase",
        "Clearwater Glass",
        "Decor",
        "draft",
        ["glass"],
        "Mouth-blown ribbed glass vase, 24 cm tall.",
        [("v_vase", "Default", "VAS-RIB", 54.0, None, 0, {})],
    ),
    (
        "p_planter",
        "Terracotta Planter",
        "Harbor Ceramics",
        "Garden",
        "active",
        ["ceramics", "garden"],
        "Unglazed terracotta planter with a saucer.",
        [
            ("v_planter_m", "Medium", "PLT-M", 28.0, None, 20, {"Size": "Medium"}),
            ("v_planter_l", "Large", "PLT-L", 38.0, None, 4, {"Size": "Large"}),
        ],
    ),
    (
        "p_calendar",
        "2023 Wall Calendar",
        "Paper Lane",
        "Stationery",
        "archived",
        ["seasonal"],
        "Risograph-printed wall calendar.",
        [("v_calendar", "Default", "CAL-23", 22.0, None, 0, {})],
    ),
]

CUSTOMERS = [  # id, first, last, email, phone, city, country, tags, marketing, created
    (
        "cu_01",
        "Amelia",
        "Brooks",
        "amelia.brooks@example.com",
        "+1 555 0101",
        "Portland",
        "US",
        ["vip"],
        True,
        "2023-03-14",
    ),
    (
        "cu_02",
        "Jonas",
        "Weber",
        "jonas.weber@example.com",
        "+49 30 5550102",
        "Berlin",
        "DE",
        [],
        False,
        "2023-07-02",
    ),
    (
        "cu_03",
        "Priya",
        "Nair",
        "priya.nair@example.com",
        "+1 555 0103",
        "Austin",
        "US",
        ["wholesale"],
        True,
        "2023-09-21",
    ),
    (
        "cu_04",
        "Lucas",
        "Moreau",
        "lucas.moreau@example.com",
        "+33 1 55 50 01 04",
        "Lyon",
        "FR",
        [],
        True,
        "2024-01-08",
    ),
    (
        "cu_05",
        "Grace",
        "Kim",
        "grace.kim@example.com",
        "+1 555 0105",
        "Seattle",
        "US",
        [],
        False,
        "2024-02-19",
    ),
    (
        "cu_06",
        "Mateo",
        "Alvarez",
        "mateo.alvarez@example.com",
        "+34 91 555 0106",
        "Madrid",
        "ES",
        ["vip"],
        True,
        "2024-03-30",
    ),
    (
        "cu_07",
        "Olivia",
        "Chen",
        "olivia.chen@example.com",
        "+1 555 0107",
        "Denver",
        "US",
        [],
        False,
        "2024-04-11",
    ),
]

LINES = {
    sku: (pid, vid, title, vtitle, price)
    for pid, title, *_rest, variants in PRODUCTS
    for vid, vtitle, sku, price, *_v in variants
}

ORDERS = [  # id, number, customer, created, [(sku, qty)], shipping, financial, fulfillment, tracking, note
    (
        "o1001",
        "#1001",
        "cu_01",
        "2024-05-28T14:12:00Z",
        [("MUG-SND", 2), ("CND-L", 1)],
        6.0,
        "paid",
        "fulfilled",
        ("Parcel Express", "PX10493820"),
        "",
    ),
    (
        "o1002",
        "#1002",
        "cu_02",
        "2024-05-29T09:40:00Z",
        [("THR-OAT", 1)],
        12.0,
        "paid",
        "fulfilled",
        ("Postal Service", "PS88301177DE"),
        "",
    ),
    (
        "o1003",
        "#1003",
        "cu_03",
        "2024-05-30T16:05:00Z",
        [("NAP-SGE", 3), ("BRD-WAL", 1)],
        8.0,
        "paid",
        "unfulfilled",
        None,
        "Gift wrap please.",
    ),
    ("o1004", "#1004", "cu_04", "2024-05-31T11:22:00Z", [("PLT-L", 2)], 9.5, "paid", "unfulfilled", None, ""),
    (
        "o1005",
        "#1005",
        "cu_05",
        "2024-06-01T08:15:00Z",
        [("CND-S", 2), ("MUG-SLT", 1)],
        6.0,
        "pending",
        "unfulfilled",
        None,
        "Customer will pay by bank transfer.",
    ),
    (
        "o1006",
        "#1006",
        "cu_06",
        "2024-06-01T19:47:00Z",
        [("THR-RST", 1), ("NAP-WHT", 1)],
        0.0,
        "paid",
        "unfulfilled",
        None,
        "",
    ),
    (
        "o1007",
        "#1007",
        "cu_01",
        "2024-06-02T10:03:00Z",
        [("BRD-WAL", 1)],
        6.0,
        "refunded",
        "unfulfilled",
        None,
        "Arrived cracked, refunded.",
    ),
    (
        "o1008",
        "#1008",
        "cu_07",
        "2024-06-02T13:30:00Z",
        [("MUG-SND", 4)],
        6.0,
        "pending",
        "unfulfilled",
        None,
        "",
    ),
]

DISCOUNTS = [  # code, kind, value, status, min subtotal, used, limit, starts, ends
    ("SUMMER15", "percentage", 15.0, "active", 50.0, 38, None, "2024-05-01", "2024-08-31"),
    ("WELCOME10", "fixed", 10.0, "active", 0.0, 112, None, "2023-01-01", None),
    ("VIP25", "percentage", 25.0, "active", 100.0, 6, 50, "2024-01-01", None),
    ("SPRING23", "percentage", 10.0, "expired", 0.0, 221, None, "2023-03-01", "2023-05-31"),
    ("HOLIDAY24", "fixed", 20.0, "scheduled", 80.0, 0, 500, "2024-11-25", "2024-12-31"),
]


def _order(
    oid, number, customer, created, items, shipping, financial, fulfillment, tracking, note
) -> dict[str, Any]:
    cust = next(c for c in CUSTOMERS if c[0] == customer)
    lines = []
    for sku, qty in items:
        pid, vid, title, vtitle, price = LINES[sku]
        lines.append(
            {
                "product": pid,
                "variant": vid,
                "title": title,
                "variant_title": vtitle,
                "sku": sku,
                "quantity": qty,
                "price": price,
            }
        )
    fulfillments = (
        [{"carrier": tracking[0], "tracking": tracking[1], "created": created, "notify_customer": True}]
        if tracking
        else []
    )
    return {
        "number": number,
        "customer": customer,
        "created": created,
        "lines": lines,
        "shipping": shipping,
        "discount": None,
        "financial_status": financial,
        "fulfillment_status": fulfillment,
        "fulfillments": fulfillments,
        "note": note,
        "tags": [],
        "cancelled": False,
        "shipping_address": {
            "name": f"{cust[1]} {cust[2]}",
            "line1": f"{int(number[1:]) % 90 + 10} Market Street",
            "city": cust[5],
            "zip": "00000",
            "country": cust[6],
        },
    }


def default_state() -> dict[str, Any]:
    """The default store; the same value on every call."""
    return {
        "store": {
            "name": "Harbor & Pine",
            "currency": "USD",
            "tax_rate": 0.08,
            "email": "hello@harborpine.test",
        },
        "products": {
            pid: {
                "title": title,
                "description": desc,
                "vendor": vendor,
                "type": kind,
                "status": status,
                "tags": list(tags),
                "created": "2024-01-15",
                "updated_at": "2024-05-01T09:00:00Z",
                "variants": {
                    vid: {
                        "title": vt,
                        "sku": sku,
                        "price": price,
                        "compare_at": compare,
                        "inventory": stock,
                        "options": dict(opts),
                    }
                    for vid, vt, sku, price, compare, stock, opts in variants
                },
            }
            for pid, title, vendor, kind, status, tags, desc, variants in PRODUCTS
        },
        "customers": {
            cid: {
                "first_name": f,
                "last_name": la,
                "email": e,
                "phone": ph,
                "city": ci,
                "country": co,
                "tags": list(t),
                "note": "",
                "accepts_marketing": m,
                "created": cr,
            }
            for cid, f, la, e, ph, ci, co, t, m, cr in CUSTOMERS
        },
        "orders": {row[0]: _order(*row) for row in ORDERS},
        "discounts": {
            code: {
                "code": code,
                "kind": kind,
                "value": value,
                "status": status,
                "min_subtotal": minimum,
                "usage_count": used,
                "usage_limit": limit,
                "starts": starts,
                "ends": ends,
            }
            for code, kind, value, status, minimum, used, limit, starts, ends in DISCOUNTS
        },
        "ui": {},
    }
