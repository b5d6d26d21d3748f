"""Deterministic default mailbox: a consultant's inbox with threads, labels, attachments and spam."""

from __future__ import annotations

from typing import Any

ME = ("Jordan Lee", "jordan.lee@brightmail.test")
PEOPLE = {
    "sam": ("Sam Rivera", "sam.rivera@orbitdesign.test"),
    "nina": ("Nina Kowalski", "nina@kowalski-law.test"),
    "dev": ("Dev Sharma", "dev.sharma@northwind.test"),
    "ops": ("Northwind Billing", "billing@northwind.test"),
    "mia": ("Mia Jensen", "mia.jensen@gmail.test"),
    "leo": ("Leo Martins", "leo@martins-photo.test"),
    "hr": ("People Team", "people@brightmail.test"),
    "air": ("SkyWays Travel", "no-reply@skyways.test"),
    "news": ("The Weekly Brief", "newsletter@weeklybrief.test"),
    "spam": ("Prize Center", "winner@prize-center.test"),
}

LABELS = {"work": ("Work", "#1c7ed6"), "personal": ("Personal", "#2f9e44"), "finance": ("Finance", "#e8590c"),
          "travel": ("Travel", "#9c36b5")}
FOLDERS = {"inbox": ("Inbox", 0), "sent": ("Sent", 3), "drafts": ("Drafts", 4), "archive": ("Archive", 5),
           "spam": ("Spam", 6), "trash": ("Trash", 7)}

MESSAGES = [  # id, folder, thread, from, to, date, subject, body, read, starred, labels, attachments, reply_to
    ("e001", "inbox", "t01", "sam", ["me"], "2024-06-05T08:12:00Z", "Homepage mockups v3",
     "Hi Jordan,\n\nAttached are the v3 mockups for the homepage. I moved the testimonials above the fold as "
     "discussed. Could you send feedback by Friday?\n\nThanks,\nSam", False, True, ["work"],
     [("homepage-v3.pdf", 2457600, "application/pdf")], None),
    ("e002", "inbox", "t02", "ops", ["me"], "2024-06-05T07:30:00Z", "Invoice INV-2024-0612 is available",
     "Your invoice for May 2024 (USD 1,240.00) is now available in your account. Payment is due on June 19, 2024.",
     False, False, ["finance"], [("INV-2024-0612.pdf", 183000, "application/pdf")], None),
    ("e003", "inbox", "t03", "dev", ["me"], "2024-06-04T16:45:00Z", "Kickoff agenda for Thursday",
     "Hey Jordan,\n\nHere is a draft agenda for Thursday's kickoff:\n1. Goals and success metrics\n2. Timeline\n"
     "3. Roles and responsibilities\n\nAnything you would add?\n\nDev", True, False, ["work"], [], None),
    ("e004", "inbox", "t04", "mia", ["me"], "2024-06-04T12:02:00Z", "Dinner on Saturday?",
     "Are you free on Saturday evening? Thinking of the new Lebanese place on Elm Street around 7.", False, False,
     ["personal"], [], None),
    ("e005", "inbox", "t05", "air", ["me"], "2024-06-03T21:10:00Z", "Your booking SW4821 is confirmed",
     "Flight SW4821, Lisbon (LIS) to Berlin (BER), June 21, 2024, departing 09:40. Seat 14C. Booking reference QX7PLM.",
     True, False, ["travel"], [("itinerary-QX7PLM.pdf", 94000, "application/pdf")], None),
    ("e006", "inbox", "t06", "nina", ["me"], "2024-06-03T15:20:00Z", "Contract review: Orbit Design MSA",
     "Jordan,\n\nI reviewed the master services agreement. Two points need changes: the liability cap in section 8 "
     "and the payment terms in section 4 (net 60 is unusual). Happy to discuss.\n\nBest,\nNina", True, True, ["work"],
     [("MSA-redline.docx", 51200, "application/vnd.openxmlformats-officedocument.wordprocessingml.document")], None),
    ("e007", "inbox", "t07", "news", ["me"], "2024-06-03T06:00:00Z", "This week: remote work, pricing pages, and more",
     "The Weekly Brief. 1) How teams run async standups. 2) Ten pricing pages that convert. 3) Tools we liked.",
     True, False, [], [], None),
    ("e008", "inbox", "t08", "hr", ["me"], "2024-06-02T10:00:00Z", "Reminder: submit your expenses by June 10",
     "Hi all, please submit May expenses through the portal by June 10 so they make the June payroll.", False, False,
     ["finance"], [], None),
    ("e009", "inbox", "t09", "leo", ["me"], "2024-06-01T18:30:00Z", "Photos from the product shoot",
     "Hi Jordan, the edited photos from Tuesday's shoot are ready. 48 images, full resolution. Let me know which "
     "ones you want retouched.", True, False, ["work"], [], None),
    ("e010", "sent", "t03", "me", ["dev"], "2024-06-04T17:05:00Z", "Re: Kickoff agenda for Thursday",
     "Looks good. Let's add 15 minutes for risks and open questions at the end.\n\nJordan", True, False, ["work"], [],
     "e003"),
    ("e011", "inbox", "t03", "dev", ["me"], "2024-06-04T17:20:00Z", "Re: Kickoff agenda for Thursday",
     "Added. See you Thursday!", True, False, ["work"], [], "e010"),
    ("e012", "sent", "t10", "me", ["sam"], "2024-05-30T11:00:00Z", "Homepage brief",
     "Hi Sam, sharing the brief for the homepage refresh. Main goal: make the product demo easier to find.",
     True, False, ["work"], [], None),
    ("e013", "archive", "t11", "ops", ["me"], "2024-05-05T07:30:00Z", "Invoice INV-2024-0511 is available",
     "Your invoice for April 2024 (USD 1,180.00) is now available in your account.", True, False, ["finance"],
     [("INV-2024-0511.pdf", 181000, "application/pdf")], None),
    ("e014", "archive", "t12", "mia", ["me"], "2024-05-18T09:12:00Z", "Hiking pictures",
     "Here are the pictures from last weekend's hike!", True, False, ["personal"], [], None),
    ("e015", "drafts", "t13", "me", ["nina"], "2024-06-04T19:00:00Z", "Re: Contract review: Orbit Design MSA",
     "Hi Nina, thanks for the review. On section 8,", True, False, [], [], None),
    ("e016", "spam", "t14", "spam", ["me"], "2024-06-02T03:14:00Z", "Congratulations! You have been selected",
     "Claim your prize now by confirming your bank details.", False, False, [], [], None),
    ("e017", "trash", "t15", "news", ["me"], "2024-05-27T06:00:00Z", "This week: onboarding emails that work",
     "The Weekly Brief. Onboarding emails, churn surveys and a reading list.", True, False, [], [], None),
]


def _person(key: str) -> dict[str, str]:
    name, email = ME if key == "me" else PEOPLE[key]
    return {"name": name, "email": email}


def default_state() -> dict[str, Any]:
    """The default mailbox; the same value on every call."""
    return {
        "account": {"name": ME[0], "email": ME[1], "signature": "Jordan Lee\nIndependent product consultant",
                    "last_sync": "2024-06-05T08:15:00Z"},
        "folders": {fid: {"name": name, "system": True, "order": order} for fid, (name, order) in FOLDERS.items()}
        | {"receipts": {"name": "Receipts", "system": False, "order": 10}},
        "labels": {lid: {"name": name, "color": color} for lid, (name, color) in LABELS.items()},
        "messages": {
            mid: {"folder": folder, "thread": thread, "from": _person(sender), "to": [_person(t) for t in to], "cc": [],
                  "subject": subject, "body": body, "date": date, "read": read, "starred": starred,
                  "labels": list(labels), "in_reply_to": reply_to,
                  "attachments": [{"name": n, "size": size, "content_type": ctype, "url": ""}
                                  for n, size, ctype in attachments]}
            for mid, folder, thread, sender, to, date, subject, body, read, starred, labels, attachments, reply_to
            in MESSAGES
        },
        "contacts": [_person(key) for key in ("sam", "nina", "dev", "mia", "leo")],
        "ui": {},
    }
