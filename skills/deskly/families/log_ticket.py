"""Deskly: log a new ticket for a customer. Data and wording: log_ticket.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import fill_date, in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import option_label, records, seeded

NAMES = ["Greta Holm", "Marco Bianchi", "Zainab Musa", "Oskar Lind", "Priya Nair", "Theo Martin"]
MONTHS = ["June", "July"]


def draw(rng, pools):
    state = seeded("deskly")
    name = rng.choice(NAMES)
    (customer,) = records("deskly", "customers", 1, rng, state, name=name)
    month, day = rng.randint(6, 7), rng.randint(15, 28)
    priority = rng.choice(["low", "high", "urgent"])
    group = rng.choice(["billing", "accounts"])  # never the default (technical)
    return {
        "world": {"customers": {customer: state["customers"][customer]}},
        "customer": customer,
        "customer_name": name,
        "subject": rng.choice(pools["subjects"]),
        "description": rng.choice(pools["descriptions"]),
        "priority": priority,
        "priority_label": option_label(priority),
        "group": group,
        "group_label": option_label(group),
        "due": f"2024-{month:02d}-{day:02d}",
        "due_text": f"{MONTHS[month - 6]} {day}, 2024",
    }


def initial_setup(P):
    hub_write("deskly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("deskly", "state")["stored_state"]
    ticket = {
        "subject": P["subject"],
        "requester": P["customer"],
        "status": "new",
        "priority": P["priority"],
        "group": "technical" if mistake == "wrong_group" else P["group"],
        "description": P["description"],
        "tags": [],
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_due":
        ticket["due"] = P["due"]
    state["tickets"][next_id(state["tickets"], "T", 4)] = ticket
    hub_write("deskly", "set_current", state)


def reward(P):
    go = hub_read("deskly", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["tickets"][t] for t in added_ids(go, "tickets")]
    logged = [
        t for t in new if squash(t["subject"]) == squash(P["subject"]) and t["requester"] == P["customer"]
    ]

    @precondition("the customer exists and has no ticket with that subject yet")
    def world_as_described():
        return P["customer"] in before["customers"] and not any(
            squash(t["subject"]) == squash(P["subject"]) for t in before["tickets"].values()
        )

    @precondition("no existing ticket changed or was deleted, and only one ticket was added")
    def others_intact():
        return unchanged_except(go, "tickets") and len(new) <= 1

    @component("a ticket with that subject is logged for the customer", 0.3)
    def exists():
        return bool(logged)

    @component("its priority and group are the ones asked", 0.3)
    def triaged():
        return any(t.get("priority") == P["priority"] and t.get("group") == P["group"] for t in logged)

    @component("its SLA due date and description are set", 0.4)
    def details():
        return any(
            t.get("due") == P["due"] and mentions(t.get("description", ""), P["description"]) for t in logged
        )


def demonstrate(P, screen):
    """New ticket on All tickets; fill the dialog (subject, requester, priority, group, SLA due,
    description) and create it."""
    yield from open_view(screen, "All tickets")
    yield from press(screen, "New ticket")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New ticket dialog")
    yield from type_field(screen, "Subject", P["subject"])
    yield from choose(screen, "Requester", P["customer_name"])
    yield from choose(screen, "Priority", P["priority_label"])
    yield from choose(screen, "Group", P["group_label"])
    yield fill_date(screen, "SLA due", P["due"])
    yield from type_field(screen, "Description", P["description"])
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Create ticket").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield settle()
