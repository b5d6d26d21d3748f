"""Deterministic default tracker: two projects, sprints in every state, a realistic backlog."""

from __future__ import annotations

from typing import Any

USERS = {
    "u_maya": ("Maya Patel", "maya@acme.test", "#4c6ef5"),
    "u_omar": ("Omar Haddad", "omar@acme.test", "#12b886"),
    "u_lena": ("Lena Fischer", "lena@acme.test", "#f76707"),
    "u_raj": ("Raj Mehta", "raj@acme.test", "#ae3ec9"),
    "u_sofia": ("Sofia Rossi", "sofia@acme.test", "#e64980"),
    "u_tom": ("Tom Becker", "tom@acme.test", "#1098ad"),
}

STATUSES = {
    "todo": ("To Do", "todo", 0),
    "in_progress": ("In Progress", "in_progress", 1),
    "in_review": ("In Review", "in_progress", 2),
    "done": ("Done", "done", 3),
}
# Work moves forward one step at a time; review can bounce back; Done can only be reopened.
TRANSITIONS = {
    "todo": ["in_progress"],
    "in_progress": ["todo", "in_review"],
    "in_review": ["in_progress", "done"],
    "done": ["todo"],
}

SPRINTS = {  # id: name, project, state, start, end, goal
    "s_web_11": ("WEB Sprint 11", "WEB", "closed", "2024-05-06", "2024-05-17", "Ship the new pricing page"),
    "s_web_12": (
        "WEB Sprint 12",
        "WEB",
        "active",
        "2024-05-20",
        "2024-05-31",
        "Checkout redesign behind a flag",
    ),
    "s_web_13": ("WEB Sprint 13", "WEB", "future", None, None, ""),
    "s_mob_4": ("MOB Sprint 4", "MOB", "active", "2024-05-20", "2024-06-03", "Offline mode beta"),
}

ISSUES = [  # key, type, summary, status, priority, assignee, sprint, points, labels, epic
    ("WEB-1", "epic", "Checkout redesign", "in_progress", "high", "u_maya", None, None, ["checkout"], None),
    (
        "WEB-2",
        "story",
        "New address form with autocomplete",
        "done",
        "high",
        "u_lena",
        "s_web_11",
        5,
        ["checkout"],
        "WEB-1",
    ),
    (
        "WEB-3",
        "story",
        "Show order summary in a sticky sidebar",
        "todo",
        "medium",
        "u_lena",
        "s_web_12",
        3,
        ["checkout"],
        "WEB-1",
    ),
    (
        "WEB-4",
        "bug",
        "Coupon field accepts expired codes",
        "in_progress",
        "highest",
        "u_omar",
        "s_web_12",
        2,
        ["checkout", "bug-bash"],
        "WEB-1",
    ),
    (
        "WEB-5",
        "story",
        "Guest checkout without an account",
        "in_review",
        "high",
        "u_raj",
        "s_web_12",
        8,
        ["checkout"],
        "WEB-1",
    ),
    (
        "WEB-6",
        "task",
        "Add analytics events for each checkout step",
        "todo",
        "medium",
        None,
        "s_web_12",
        2,
        ["analytics"],
        "WEB-1",
    ),
    (
        "WEB-7",
        "bug",
        "Mobile menu does not close after navigation",
        "in_review",
        "medium",
        "u_lena",
        "s_web_12",
        1,
        ["mobile"],
        None,
    ),
    (
        "WEB-8",
        "task",
        "Upgrade the UI component library",
        "done",
        "low",
        "u_omar",
        "s_web_12",
        3,
        ["tech-debt"],
        None,
    ),
    ("WEB-9", "story", "Saved payment methods", "todo", "medium", None, "s_web_13", 5, ["checkout"], "WEB-1"),
    (
        "WEB-10",
        "bug",
        "Footer links 404 on the German site",
        "todo",
        "low",
        "u_sofia",
        None,
        1,
        ["i18n"],
        None,
    ),
    ("WEB-11", "story", "Dark mode for marketing pages", "todo", "lowest", None, None, 5, [], None),
    (
        "WEB-12",
        "task",
        "Write runbook for payment provider outages",
        "todo",
        "medium",
        "u_maya",
        None,
        2,
        ["ops"],
        None,
    ),
    (
        "WEB-13",
        "bug",
        "Price rounding differs between cart and invoice",
        "in_progress",
        "high",
        "u_raj",
        "s_web_12",
        3,
        ["checkout", "billing"],
        "WEB-1",
    ),
    (
        "WEB-14",
        "story",
        "Gift card redemption at checkout",
        "todo",
        "medium",
        None,
        "s_web_13",
        5,
        ["checkout"],
        "WEB-1",
    ),
    ("MOB-1", "epic", "Offline mode", "in_progress", "high", "u_tom", None, None, ["offline"], None),
    (
        "MOB-2",
        "story",
        "Cache the last 50 orders on device",
        "in_progress",
        "high",
        "u_tom",
        "s_mob_4",
        5,
        ["offline"],
        "MOB-1",
    ),
    (
        "MOB-3",
        "story",
        "Queue writes while offline and sync later",
        "todo",
        "high",
        "u_sofia",
        "s_mob_4",
        8,
        ["offline"],
        "MOB-1",
    ),
    (
        "MOB-4",
        "bug",
        "App crashes when rotating on the login screen",
        "in_review",
        "highest",
        "u_sofia",
        "s_mob_4",
        2,
        ["crash"],
        None,
    ),
    (
        "MOB-5",
        "task",
        "Set up crash reporting for beta builds",
        "done",
        "medium",
        "u_tom",
        "s_mob_4",
        1,
        ["ops"],
        None,
    ),
    ("MOB-6", "story", "Push notification preferences screen", "todo", "low", None, None, 3, [], None),
]

DESCRIPTIONS = {
    "WEB-4": "Steps: add item, enter code SPRING23 (expired 2023-05-31), apply. Expected: error. Actual: 10% off applied.",
    "WEB-5": "Allow customers to check out with only an email address. Offer account creation after the order.",
    "WEB-13": "Cart shows 19.99 x 3 = 59.97 but the invoice says 59.98. Round per line, not on the total.",
    "MOB-4": "Reproducible on Android 14, Pixel 7. Stack trace attached in the crash tool.",
}

COMMENTS = [  # id, issue, author, created, body
    (
        "cm001",
        "WEB-4",
        "u_maya",
        "2024-05-21T10:02:00Z",
        "Customers are already using old codes, let's prioritise this.",
    ),
    (
        "cm002",
        "WEB-4",
        "u_omar",
        "2024-05-22T14:30:00Z",
        "Found it: the expiry check compares dates in local time.",
    ),
    ("cm003", "WEB-5", "u_raj", "2024-05-27T09:15:00Z", "PR is ready for review, covered by e2e tests."),
    ("cm004", "WEB-7", "u_lena", "2024-05-28T16:40:00Z", "Fixed by closing the drawer on route change."),
    (
        "cm005",
        "MOB-4",
        "u_tom",
        "2024-05-29T11:05:00Z",
        "Could be the same issue as the keyboard overlay bug.",
    ),
    ("cm006", "WEB-13", "u_maya", "2024-05-30T08:20:00Z", "Finance confirmed: per-line rounding is correct."),
]


def default_state() -> dict[str, Any]:
    """The default tracker workspace; the same value on every call."""
    issues = {}
    for number, (key, kind, summary, status, priority, assignee, sprint, points, labels, epic) in enumerate(
        ISSUES
    ):
        day = 10 + number % 18
        issues[key] = {
            "project": key.split("-")[0],
            "type": kind,
            "summary": summary,
            "description": DESCRIPTIONS.get(key, ""),
            "status": status,
            "priority": priority,
            "assignee": assignee,
            "reporter": "u_maya",
            "sprint": sprint,
            "epic": epic,
            "labels": list(labels),
            "points": points,
            "created": f"2024-05-{day:02d}T09:00:00Z",
            "updated": f"2024-05-{day:02d}T09:00:00Z",
        }
    return {
        "current_user": "u_maya",
        "users": {uid: {"name": n, "email": e, "color": c} for uid, (n, e, c) in USERS.items()},
        "projects": {
            "WEB": {
                "key": "WEB",
                "name": "Website",
                "lead": "u_maya",
                "color": "#4c6ef5",
                "description": "The public website and web checkout.",
            },
            "MOB": {
                "key": "MOB",
                "name": "Mobile App",
                "lead": "u_tom",
                "color": "#12b886",
                "description": "iOS and Android apps.",
            },
        },
        "workflow": {
            "statuses": {sid: {"name": n, "category": c, "order": o} for sid, (n, c, o) in STATUSES.items()},
            "transitions": {k: list(v) for k, v in TRANSITIONS.items()},
        },
        "sprints": {
            sid: {"name": n, "project": p, "state": st, "start": a, "end": b, "goal": g}
            for sid, (n, p, st, a, b, g) in SPRINTS.items()
        },
        "issues": issues,
        "comments": {cid: {"issue": i, "author": a, "created": t, "body": b} for cid, i, a, t, b in COMMENTS},
        "ui": {},
    }
