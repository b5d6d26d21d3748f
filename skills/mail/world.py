"""Host-side builders for the mail families' initial worlds (never shipped into scripts).

A world is a `set` patch deep-merged with the seeded mailbox (infra/hub/apps/mail/seed.py: account
jordan.lee@brightmail.test, messages e001…e017, labels work/personal/finance/travel, folder
`receipts`). Generated messages use ids e101… and threads g<n>, so the seeded messages stay and are
the records a task must leave alone.
"""

from __future__ import annotations

import random

ME = {"name": "Jordan Lee", "email": "jordan.lee@brightmail.test"}  # the seed's account
COLLEAGUES = [
    ("Avery Brooks", "avery.brooks@brightmail.test"),
    ("Casey Nguyen", "casey.nguyen@brightmail.test"),
    ("Drew Patel", "drew.patel@brightmail.test"),
    ("Morgan Reyes", "morgan.reyes@brightmail.test"),
    ("Riley Chen", "riley.chen@brightmail.test"),
    ("Sasha Ivanova", "sasha.ivanova@brightmail.test"),
]
CONTACTS = [
    ("Elena Marsh", "elena@marsh-studio.test"),
    ("Tobias Grant", "tobias.grant@lumenco.test"),
    ("Hannah Cole", "hannah.cole@fieldworks.test"),
    ("Marco Bianchi", "marco@bianchi-legal.test"),
    ("Priya Shah", "priya.shah@northpeak.test"),
    ("Owen Clarke", "owen.clarke@clarke-cpa.test"),
    ("Zoe Martin", "zoe.martin@gmail.test"),
    ("Felix Wong", "felix.wong@tidepool.test"),
]
ROUTINE = [  # subject, body
    (
        "Coffee next week?",
        "Hi Jordan, are you around for a coffee next week? Tuesday or Wednesday works for me.",
    ),
    ("Updated proposal", "Please find the updated proposal attached. The timeline section changed the most."),
    ("Re: workshop slides", "Thanks for the slides, the team loved the case study section."),
    ("Quick question about the brief", "Is the launch still planned for the first week of July?"),
    (
        "Intro: Jordan <> Felix",
        "Jordan, meet Felix, who runs design at Tidepool. I think you two should talk.",
    ),
    ("Parking at the venue", "The venue has free parking after 6pm, just show the event badge at the gate."),
    ("Feedback on the survey draft", "Question 4 is a bit leading; otherwise it looks great."),
    (
        "Lunch order for Friday",
        "Sending the menu for Friday's lunch. Please reply with your choice by Thursday.",
    ),
]


def person(pair: tuple[str, str]) -> dict:
    return {"name": pair[0], "email": pair[1]}


def mail(
    folder: str,
    thread: str,
    sender: dict,
    subject: str,
    body: str,
    date: str,
    *,
    to: list[dict] | None = None,
    read: bool = False,
    labels: list[str] | None = None,
    attachments: list[tuple[str, int, str]] | None = None,
    in_reply_to: str | None = None,
) -> dict:
    return {
        "folder": folder,
        "thread": thread,
        "from": sender,
        "to": to or [ME],
        "cc": [],
        "subject": subject,
        "body": body,
        "date": date,
        "read": read,
        "starred": False,
        "labels": list(labels or []),
        "attachments": [
            {"name": n, "size": s, "content_type": c, "url": ""} for n, s, c in attachments or []
        ],
        "in_reply_to": in_reply_to,
    }


def stamp(rng: random.Random, day: int) -> str:
    return f"2024-06-{day:02d}T{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}:00Z"


def routine(rng: random.Random, n: int, first_id: int, thread_base: int) -> dict[str, dict]:
    """`n` ordinary inbox messages from distinct contacts (ids e<first_id>…, threads g<thread_base>…)."""
    out = {}
    for k, ((subject, body), sender) in enumerate(
        zip(rng.sample(ROUTINE, n), rng.sample(CONTACTS, n), strict=True)
    ):
        out[f"e{first_id + k}"] = mail(
            "inbox",
            f"g{thread_base + k}",
            person(sender),
            subject,
            body,
            stamp(rng, rng.randint(6, 12)),
            read=rng.random() < 0.5,
        )
    return out
