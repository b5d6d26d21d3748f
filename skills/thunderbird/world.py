"""Host-side data the Thunderbird families' draw() share (never shipped into scripts): the user's
account at a made-up company, made-up correspondents at other made-up companies, and business
mail between them, so no task depends on the network (the desktop has none)."""

from __future__ import annotations

import datetime as dt
import email.utils
import random

ORGS = {
    "northwind": "Northwind Traders",
    "fabrikam": "Fabrikam",
    "contoso": "Contoso Ltd",
    "tailspin": "Tailspin Toys",
    "wingtip": "Wingtip Toys",
    "adatum": "Adatum Corporation",
    "litware": "Litware Inc",
    "proseware": "Proseware",
    "woodgrove": "Woodgrove Bank",
    "alpine": "Alpine Ski House",
    "coho": "Coho Winery",
    "lucerne": "Lucerne Publishing",
}
FIRST = ["Ola", "Ravi", "Maren", "Tomas", "Aiko", "Bruno", "Celia", "Dmitri", "Esme", "Farid", "Greta", "Hugo",
         "Ines", "Jonah", "Keiko", "Lars", "Mira", "Nadia", "Omar", "Petra", "Rosa", "Sven", "Talia", "Viktor"]  # fmt: skip
LAST = ["Berg", "Menon", "Holt", "Novak", "Tanaka", "Costa", "Reyes", "Volkov", "Lind", "Haddad", "Moser", "Brandt",
        "Ferreira", "Okafor", "Sato", "Nilsen", "Kaur", "Pereira", "Quinn", "Dvorak", "Salas", "Aalto", "Baker"]  # fmt: skip
ROLES = ["Account Manager", "Buyer", "Project Lead", "Controller", "Office Manager", "Sales Director",
         "Logistics Coordinator", "Product Owner", "Analyst", "Support Lead"]  # fmt: skip
# (subject, body) of business mail; {org} is the sender's company, {n} a number, {me} the user's first name
TOPICS = {
    "invoice": ("Invoice {n} from {org}", "Hi {me},\n\nplease find the details of invoice {n} below.\nPayment is due in 30 days.\n"),
    "receipt": ("Payment receipt {n}", "Hello {me},\n\nthis confirms we received payment {n}. Thank you.\n"),
    "meeting": ("Meeting notes: {org} review", "Hi {me},\n\nthanks for joining the review. Action items follow.\n"),
    "shipping": ("Shipping notice for order {n}", "Hello {me},\n\norder {n} left our warehouse today.\n"),
    "report": ("Monthly report {n}", "Hi {me},\n\nthe monthly figures are attached to the portal as usual.\n"),
    "contract": ("Contract renewal {n}", "Dear {me},\n\nour agreement {n} is up for renewal next month.\n"),
    "newsletter": ("{org} newsletter #{n}", "Hi {me},\n\nhere is what happened at {org} this month.\n"),
    "ticket": ("Support ticket {n} updated", "Hello {me},\n\nticket {n} has a new reply from our team.\n"),
    "quote": ("Price quote {n}", "Hi {me},\n\nas requested, our quote {n} for the spring order.\n"),
    "agenda": ("Agenda for Thursday", "Hi {me},\n\nplease add your points to the agenda before Thursday.\n"),
    "survey": ("Quick survey about our service", "Dear {me},\n\nwe would value five minutes of your time.\n"),
    "training": ("Training session {n}", "Hi {me},\n\nthe training session {n} is confirmed for next week.\n"),
}  # fmt: skip


def person(rng: random.Random, org: str, used: set[str]) -> dict:
    """A made-up person at `org` whose name is not in `used` (which it joins)."""
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if f"{first} {last}" not in used and first not in {u.split()[0] for u in used}:
            break
    used.add(f"{first} {last}")
    return {
        "first": first,
        "last": last,
        "name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}@{org}.example",
        "org": ORGS[org],
        "domain": f"{org}.example",
    }


def account(rng: random.Random, used: set[str]) -> dict:
    """The user: a person at a made-up company with a POP3 account on its mail host."""
    org = rng.choice(sorted(ORGS))
    me = person(rng, org, used)
    return {**me, "host": f"mail.{org}.example", "org_key": org}


def correspondents(rng: random.Random, me: dict, count: int, used: set[str]) -> list[dict]:
    """`count` people at distinct companies other than the user's."""
    orgs = rng.sample([o for o in sorted(ORGS) if o != me["org_key"]], count)
    return [person(rng, org, used) for org in orgs]


def mail_date(index: int, start: dt.datetime = dt.datetime(2024, 3, 4, 8, 30, tzinfo=dt.UTC)) -> str:
    """The RFC 2822 date of the index-th message of a mailbox (one every 7 hours 13 minutes)."""
    return email.utils.format_datetime(start + dt.timedelta(hours=7 * index, minutes=13 * index))


def message(rng: random.Random, index: int, sender: dict, me: dict, topic: str, n: int | None = None) -> dict:
    """One message from `sender` to the user about `topic` (a TOPICS key)."""
    subject, body = TOPICS[topic]
    values = {"org": sender["org"], "n": n if n is not None else rng.randint(1000, 9999), "me": me["first"]}
    return {
        "id": f"{rng.getrandbits(48):012x}.{index}@{sender['domain']}",
        "from": f"{sender['name']} <{sender['email']}>",
        "to": f"{me['name']} <{me['email']}>",
        "subject": subject.format(**values),
        "date": mail_date(index),
        "body": body.format(**values) + f"\nBest regards,\n{sender['name']}\n{sender['org']}\n",
    }


def mailbox(rng: random.Random, me: dict, plan: list[tuple[dict, str]]) -> list[dict]:
    """Messages in date order for (sender, topic) pairs, subjects made distinct by their numbers."""
    numbers = rng.sample(range(1000, 9999), len(plan))
    found, subjects = [], set()
    for i, (sender, topic) in enumerate(plan):
        item = message(rng, i, sender, me, topic, numbers[i])
        if item["subject"] in subjects:  # the topics without a number, twice
            item["subject"] += f" ({numbers[i]})"
        subjects.add(item["subject"])
        found.append(item)
    return found


def account_of(me: dict) -> dict:
    """What the guest kit's tb_write_profile takes: {"name", "email", "host"}."""
    return {"name": me["name"], "email": me["email"], "host": me["host"]}
