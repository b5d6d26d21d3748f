"""Host-side builders for the chat families' initial worlds (never shipped into scripts).

A world is a `set` patch: it is deep-merged with the seeded workspace (infra/hub/apps/chat/seed.py,
current user `u_ana`), so the seeded channels and messages stay and become the records a task must
not disturb. Generated records use ids the seed does not (`m0101`…, `c_<name>` of new names).
"""

from __future__ import annotations

import random

ME = "u_ana"  # the seed's current user (SCHEMA.md); rewards read current_user from the state instead
SEED_PEOPLE = {
    "u_ben": "Ben Okafor",
    "u_chen": "Chen Wei",
    "u_dara": "Dara Singh",
    "u_eli": "Eli Novak",
    "u_fay": "Fay Morgan",
    "u_gus": "Gus Lindqvist",
    "u_hana": "Hana Ito",
}
NEW_PEOPLE = [  # name, handle, title
    ("Iris Baptiste", "iris", "Data Scientist"),
    ("Jonas Weber", "jonas", "Site Reliability Engineer"),
    ("Kemi Adeyemi", "kemi", "Product Designer"),
    ("Luca Romano", "luca", "Backend Engineer"),
    ("Mina Park", "mina", "Support Engineer"),
    ("Noah Fischer", "noah", "Sales Engineer"),
    ("Olga Petrova", "olga", "QA Lead"),
    ("Priya Raman", "priya", "Marketing Manager"),
    ("Quentin Dubois", "quentin", "Security Engineer"),
    ("Rosa Diaz", "rosa", "Finance Partner"),
    ("Sami Haddad", "sami", "Mobile Engineer"),
    ("Tess Okoro", "tess", "Recruiter"),
]
COLORS = ["#0b7285", "#5f3dc4", "#c2255c", "#2b8a3e", "#e67700", "#364fc7"]
CHANNEL_NAMES = [
    "mobile-release",
    "data-platform",
    "billing-revamp",
    "partner-portal",
    "infra-oncall",
    "growth-experiments",
    "hiring-eng",
    "customer-success",
    "website-refresh",
    "security-review",
    "search-quality",
    "pricing-v2",
    "docs-team",
    "api-gateway",
    "brand-refresh",
    "analytics-guild",
    "vendor-onboarding",
    "field-sales",
]
PURPOSES = {
    "mobile-release": "Coordinating the next mobile app release",
    "data-platform": "Pipelines, warehouse and BI",
    "billing-revamp": "Rebuilding invoices and payment flows",
    "partner-portal": "The partner self-service portal",
    "infra-oncall": "On-call handovers and incidents",
    "growth-experiments": "A/B tests and funnel work",
    "hiring-eng": "Engineering hiring pipeline",
    "customer-success": "Renewals and account health",
    "website-refresh": "The marketing site redesign",
    "security-review": "Security reviews and findings",
    "search-quality": "Relevance tuning for in-app search",
    "pricing-v2": "The new pricing and packaging",
    "docs-team": "Product documentation",
    "api-gateway": "The public API gateway",
    "brand-refresh": "New logo, colours and templates",
    "analytics-guild": "Sharing dashboards and metrics",
    "vendor-onboarding": "Getting new suppliers set up",
    "field-sales": "Regional sales team chatter",
}
CHATTER = [
    "Morning all, notes from yesterday are in the doc.",
    "Pushed a fix for the flaky test, please re-run.",
    "Reminder: retro is on Friday.",
    "Thanks for the quick turnaround on this!",
    "I'll be out on Monday.",
    "Updated the tracker with this week's priorities.",
    "The dashboard numbers look off, checking now.",
    "Can we move the sync to 3pm?",
    "Draft is ready for a first look.",
    "Great work on the launch, team.",
    "Heads-up: staging will be down for 20 minutes tonight.",
    "Shared the recording from the call.",
]


def channel_id(name: str) -> str:
    """The id the UI gives a channel it creates (chat/static/model.js createChannel)."""
    return "c_" + name.replace("-", "_")


def people(rng: random.Random, n_new: int) -> tuple[dict[str, dict], dict[str, str]]:
    """(`users` patch with `n_new` generated people, {uid: name} of everyone but the current user)."""
    users = {}
    for name, handle, title in rng.sample(NEW_PEOPLE, n_new):
        users[f"u_{handle}"] = {
            "name": name,
            "handle": handle,
            "title": title,
            "status_text": "",
            "presence": rng.choice(["active", "away"]),
            "color": rng.choice(COLORS),
        }
    everyone = dict(SEED_PEOPLE) | {uid: u["name"] for uid, u in users.items()}
    return users, everyone


def channel(
    name: str, members: list[str], *, created: str, archived: bool = False, creator: str = ME
) -> dict:
    return {
        "name": name,
        "topic": "",
        "purpose": PURPOSES.get(name, ""),
        "private": False,
        "archived": archived,
        "starred": False,
        "members": list(members),
        "created_by": creator,
        "created": created,
    }


def message(
    conversation: str,
    user: str,
    text: str,
    ts: str,
    *,
    thread: str | None = None,
    reactions: dict | None = None,
) -> dict:
    return {
        "conversation": conversation,
        "user": user,
        "text": text,
        "ts": ts,
        "thread": thread,
        "reactions": dict(reactions or {}),
        "edited": False,
        "pinned": False,
        "files": [],
    }
