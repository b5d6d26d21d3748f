"""Deskly + terminal: log a ticket for each escalated row of a phone-intake CSV. Data and wording:
csv_intake.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import chromium_on_top, in_dialog, switch_to_chromium
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import option_label, records, seeded

PEOPLE = ["Greta Holm", "Marco Bianchi", "Zainab Musa", "Oskar Lind", "Priya Nair", "Theo Martin", "Ivy Chen"]


def draw(rng, pools):
    state = seeded("deskly")
    names = rng.sample(PEOPLE, 5)
    customers = {}
    for name in names:
        email = f"{name.split()[0].lower()}.{name.split()[1].lower()}@example.org"
        customers.update(records("deskly", "customers", 1, rng, state, name=name, email=email))
    subjects = rng.sample(pools["subjects"], 5)
    rows = []
    for (cid, customer), subject in zip(customers.items(), subjects, strict=True):
        rows.append(
            {
                "email": customer["email"],
                "customer": cid,
                "name": customer["name"],
                "subject": subject,
                "priority": rng.choice(["low", "high", "urgent"]),
                "escalate": "no",
            }
        )
    for row in rng.sample(rows, rng.randint(2, 3)):
        row["escalate"] = "yes"
    return {"world": {"customers": customers}, "rows": rows, "csv": "Documents/phone_intake.csv"}


def initial_setup(P):
    import csv

    hub_write("deskly", "set", P["world"])
    path = HOME / P["csv"]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["email", "subject", "priority", "escalate"])
        for row in P["rows"]:
            out.writerow([row["email"], row["subject"], row["priority"], row["escalate"]])


def solve(P, *, mistake=None):
    state = hub_read("deskly", "state")["stored_state"]
    wanted = [r for r in P["rows"] if r["escalate"] == "yes"]
    if mistake == "missed_row":
        wanted = wanted[:-1]
    for row in wanted:
        state["tickets"][next_id(state["tickets"], "T", 4)] = {
            "subject": row["subject"],
            "requester": row["customer"],
            "status": "new",
            "priority": "normal" if mistake == "default_priority" else row["priority"],
            "group": "technical",
            "tags": [],
            "created": "2024-06-14T10:00:00Z",
        }
    hub_write("deskly", "set_current", state)


def reward(P):
    go = hub_read("deskly", "go")
    now = go["current_state"]
    new = [now["tickets"][t] for t in added_ids(go, "tickets")]
    escalated = [r for r in P["rows"] if r["escalate"] == "yes"]

    def logged(row):
        return [
            t
            for t in new
            if t.get("requester") == row["customer"] and squash(t["subject"]) == squash(row["subject"])
        ]

    @precondition("the intake's customers are in Deskly and no existing ticket changed")
    def world_as_described():
        customers = go["initial_state"]["customers"]
        return all(r["customer"] in customers for r in P["rows"]) and unchanged_except(go, "tickets")

    @precondition("the intake file is still there, as written")
    def intake_kept():
        import csv

        with (HOME / P["csv"]).open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        return [(r["email"], r["subject"], r["escalate"]) for r in rows] == [
            (r["email"], r["subject"], r["escalate"]) for r in P["rows"]
        ]

    @precondition("no ticket was logged for a row that is not escalated")
    def only_escalated():
        return not any(logged(r) for r in P["rows"] if r["escalate"] != "yes")

    @component("each escalated row has a ticket for its customer with its subject", 0.6)
    def tickets():
        return sum(bool(logged(r)) for r in escalated) / len(escalated)

    @component("each of those tickets has the row's priority", 0.4)
    def priorities():
        return sum(any(t.get("priority") == r["priority"] for t in logged(r)) for r in escalated) / len(
            escalated
        )


def demonstrate(P, screen):
    """The terminal shows the CSV's escalated rows (grep); then in Deskly, New ticket for each: subject,
    requester (by the email's customer, whose name the select shows), priority; Create."""
    screen.wait_until(lambda: screen.has_window("Terminal"), timeout_s=60, what="the terminal")
    if chromium_on_top(screen):  # the terminal is behind: bring it up to read the file
        yield [{"action": "key", "keys": ["alt", "tab"]}, {"action": "wait", "time": 1.0}]
    yield [{"action": "type", "text": f"grep ',yes$' ~/{P['csv']}\n"}, {"action": "wait", "time": 1.0}]
    yield from switch_to_chromium(screen)
    yield from open_view(screen, "All tickets")
    for row in [r for r in P["rows"] if r["escalate"] == "yes"]:
        yield from press(screen, "New ticket")
        screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New ticket dialog")
        yield from type_field(screen, "Subject", row["subject"])
        yield from choose(screen, "Requester", row["name"])
        yield from choose(screen, "Priority", option_label(row["priority"]))
        yield [
            {
                "action": "left_click",
                "coordinate": list(in_dialog(screen, "push-button", "Create ticket").center),
            }
        ]
        screen.wait_until(
            lambda: not screen.elements(lambda e: e.role == "dialog"),
            timeout_s=10,
            what="the dialog to close",
        )
    yield settle()
