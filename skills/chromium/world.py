"""Host-side data the Chromium families' draw() share (never shipped into scripts): made-up intranet
sites of made-up organisations, so no task depends on the web (the browser has no network)."""

from __future__ import annotations

import random

ORGS = ["northwind", "fabrikam", "contoso", "tailspin", "wingtip", "adatum", "litware", "proseware"]
SERVICES = {
    "wiki": "Team Wiki",
    "tickets": "Ticket Desk",
    "hr": "HR Portal",
    "payroll": "Payroll",
    "crm": "Customer CRM",
    "builds": "Build Status",
    "docs": "Handbook",
    "calendar": "Room Booking",
    "status": "Service Status",
    "expenses": "Expenses",
    "learning": "Training Portal",
    "dashboards": "Sales Dashboards",
}


def site(org: str, service: str) -> dict:
    """One intranet site: its page URL (with the trailing slash Chromium keeps) and a title."""
    return {"url": f"https://{service}.{org}.example/", "title": SERVICES[service], "service": service}


def sites(rng: random.Random, count: int, *, org: str | None = None) -> list[dict]:
    """`count` distinct sites of one organisation."""
    org = org or rng.choice(ORGS)
    return [site(org, s) for s in rng.sample(sorted(SERVICES), count)]
