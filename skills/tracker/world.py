"""Host-side builders for the tracker families' initial worlds (never shipped into scripts).

Each world adds one generated project (its own key, sprints and issues) to the seeded tracker
(projects WEB and MOB, current user `u_maya`, infra/hub/apps/tracker/seed.py). The seeded projects
stay: they are the records a task must leave alone. The default workflow is kept (todo ->
in_progress -> in_review -> done, one step at a time), so the UI enforces it on every move.
"""

from __future__ import annotations

import random

ME = "u_maya"  # the seed's current user (SCHEMA.md)
PROJECTS = {
    "API": "Public API",
    "DATA": "Data Platform",
    "PAY": "Payments",
    "OPS": "Operations Tooling",
    "CRM": "Customer CRM",
    "APP": "Admin App",
    "SHOP": "Storefront",
    "DOCS": "Developer Docs",
    "GROW": "Growth",
    "INFRA": "Infrastructure",
}
SEED_PEOPLE = {
    "u_maya": "Maya Patel",
    "u_omar": "Omar Haddad",
    "u_lena": "Lena Fischer",
    "u_raj": "Raj Mehta",
    "u_sofia": "Sofia Rossi",
    "u_tom": "Tom Becker",
}
# Several share a first name with a seeded user: instructions give full names, rewards check ids.
NEW_PEOPLE = [
    ("u_omarh", "Omar Hassan"),
    ("u_lenak", "Lena Kraus"),
    ("u_nadia", "Nadia Costa"),
    ("u_ravi", "Ravi Iyer"),
    ("u_tomw", "Tom Walsh"),
    ("u_yuki", "Yuki Sato"),
    ("u_ines", "Ines Duarte"),
    ("u_ken", "Ken Adams"),
]
SUMMARIES = [
    "Add rate limiting to the public endpoints",
    "Retry failed webhook deliveries",
    "Export invoices as PDF",
    "Paginate the audit log",
    "Fix timezone bug in scheduled reports",
    "Cache product thumbnails",
    "Migrate cron jobs to the scheduler",
    "Show usage alerts in the dashboard",
    "Rotate API keys without downtime",
    "Support SSO with Okta",
    "Add CSV import for contacts",
    "Improve error messages on signup",
    "Reduce cold start time",
    "Document the billing API",
    "Archive inactive workspaces",
    "Fix double charge on retries",
    "Alert on failed backups",
    "Add search to the help center",
    "Localise emails into German",
    "Speed up the orders query",
    "Track checkout abandonment",
    "Remove the legacy v1 endpoints",
    "Add two-factor recovery codes",
    "Fix broken links in the changelog",
]
LABELS = ["backend", "frontend", "tech-debt", "customer", "security", "perf"]
GOALS = [
    "Ship the reporting beta",
    "Stabilise payments before the audit",
    "Finish the SSO rollout",
    "Cut p95 latency below 300 ms",
    "Launch the partner API",
    "Close the top customer bugs",
]


def users_patch(rng: random.Random, n: int) -> tuple[dict, dict[str, str]]:
    """(`users` patch with `n` generated people, {uid: full name} of everyone)."""
    chosen = rng.sample(NEW_PEOPLE, n)
    patch = {uid: {"name": name, "email": f"{uid[2:]}@acme.test", "color": "#495057"} for uid, name in chosen}
    return patch, dict(SEED_PEOPLE) | {uid: name for uid, name in chosen}


def team(rng: random.Random, low: int, high: int) -> tuple[str, dict, dict[str, str], list[str]]:
    """A generated project's key and people: (key, `users` patch with low..high new people, {uid: full
    name} of everyone, everyone's uids sorted)."""
    key = rng.choice(sorted(PROJECTS))
    users, everyone = users_patch(rng, rng.randint(low, high))
    return key, users, everyone, sorted(everyone)


def project_patch(key: str, lead: str = ME) -> dict:
    return {
        key: {
            "key": key,
            "name": PROJECTS[key],
            "lead": lead,
            "description": f"{PROJECTS[key]} work.",
            "color": "#0b7285",
        }
    }


def sprint(
    key: str, number: int, state: str, start: str | None = None, end: str | None = None, goal: str = ""
) -> tuple[str, dict]:
    return f"s_{key.lower()}_{number}", {
        "name": f"{key} Sprint {number}",
        "project": key,
        "state": state,
        "start": start,
        "end": end,
        "goal": goal,
    }


def issue(
    key: str,
    summary: str,
    status: str,
    *,
    sprint_id: str | None,
    assignee: str | None,
    kind: str = "task",
    priority: str = "medium",
    labels: list[str] | None = None,
    points: int | None = None,
    day: int = 10,
) -> dict:
    stamp = f"2024-05-{day:02d}T09:00:00Z"
    return {
        "project": key,
        "type": kind,
        "summary": summary,
        "description": "",
        "status": status,
        "priority": priority,
        "assignee": assignee,
        "reporter": ME,
        "sprint": sprint_id,
        "epic": None,
        "labels": list(labels or []),
        "points": points,
        "created": stamp,
        "updated": stamp,
    }


def random_issue(
    rng: random.Random, key: str, summary: str, status: str, sprint_id: str | None, people: list[str]
) -> dict:
    return issue(
        key,
        summary,
        status,
        sprint_id=sprint_id,
        assignee=rng.choice([*people, None]),
        kind=rng.choice(["story", "task", "bug"]),
        priority=rng.choice(["highest", "high", "medium", "low"]),
        labels=rng.sample(LABELS, rng.randint(0, 2)),
        points=rng.choice([1, 2, 3, 5, 8]),
        day=rng.randint(1, 28),
    )
