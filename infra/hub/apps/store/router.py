"""Store routes beyond the state API: an orders CSV export, like the real admin's "Export" button.

It reads the session's current state through the same Hub the state API uses, so what the CSV says
is exactly what `/store/go` reports as current.
"""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from infra.hub.state_api import Hub, check_sid, get_hub

router = APIRouter()

COLUMNS = [
    "number",
    "created",
    "customer_email",
    "financial_status",
    "fulfillment_status",
    "items",
    "subtotal",
    "discount_code",
    "discount",
    "shipping",
    "tax",
    "total",
]


def order_totals(order: dict, tax_rate: float) -> dict[str, float]:
    """Derived money fields of one order (the same arithmetic as the UI's order page)."""
    subtotal = round(sum(line["price"] * line["quantity"] for line in order["lines"]), 2)
    discount = round((order.get("discount") or {}).get("amount", 0.0), 2)
    tax = round((subtotal - discount) * tax_rate, 2)
    total = round(subtotal - discount + order.get("shipping", 0.0) + tax, 2)
    return {"subtotal": subtotal, "discount": discount, "tax": tax, "total": total}


@router.get("/api/orders.csv")
async def export_orders(request: Request, hub: Hub = Depends(get_hub)) -> Response:
    """All orders of the session as CSV (one row per order, totals derived)."""
    sid = check_sid(request.query_params.get("sid"))
    state, _, _ = hub.sessions["store"].stored(sid)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    tax_rate = state.get("store", {}).get("tax_rate", 0.0)
    for order in state.get("orders", {}).values():
        customer = state.get("customers", {}).get(order.get("customer") or "", {})
        writer.writerow(
            {
                "number": order["number"],
                "created": order["created"],
                "customer_email": customer.get("email", ""),
                "financial_status": order["financial_status"],
                "fulfillment_status": order["fulfillment_status"],
                "items": sum(line["quantity"] for line in order["lines"]),
                "discount_code": (order.get("discount") or {}).get("code", ""),
                "shipping": order.get("shipping", 0.0),
                **order_totals(order, tax_rate),
            }
        )
    return Response(
        out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="orders.csv"'},
    )
