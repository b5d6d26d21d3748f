"""Deskly + Writer: list a group's urgent unsolved tickets in an escalation report and take them over.
Data and wording: urgent_report.yaml."""

from skills.kit.guest.docs import add_table, new_doc, open_doc, save_doc, text_of, texts_kept
from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import norm
from skills.kit.teach import click, named, save_keeping_format
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import option_label, records, seeded


def draw(rng, pools):
    state = seeded("deskly")
    group = rng.choice(pools["groups"])
    others = [g for g in ("billing", "technical", "accounts") if g != group]
    subjects = rng.sample(pools["subjects"], 8)
    plan = ["target"] * rng.randint(2, 3) + ["decoy", "decoy", "solved", "normal"]
    plan += ["normal"] * (len(subjects) - len(plan))
    rng.shuffle(plan)
    tickets = {}
    for subject, role in zip(subjects, plan, strict=True):
        fixed = {"subject": subject, "priority": "urgent", "status": rng.choice(["new", "open", "pending"])}
        fixed["group"] = group if role in ("target", "solved", "normal") else rng.choice(others)
        if role == "solved":
            fixed["status"] = rng.choice(["solved", "closed"])
        if role == "normal":
            fixed["priority"] = rng.choice(["low", "normal", "high"])
        (tid,) = records("deskly", "tickets", 1, rng, state, **fixed)
        tickets[tid] = state["tickets"][tid]

    # The seeded tickets count too: the report covers every urgent unsolved ticket of the group.
    def urgent(in_group):
        return sorted(
            t
            for t, r in state["tickets"].items()
            if in_group(r.get("group"))
            and r.get("priority") == "urgent"
            and r.get("status") in ("new", "open", "pending")
        )

    targets, decoys = urgent(lambda g: g == group), urgent(lambda g: g != group)
    for tid in targets:  # nobody has taken them yet, so Assign to me changes each
        if state["tickets"][tid].get("assignee") == "a0001":
            state["tickets"][tid]["assignee"] = "a0002"
            tickets[tid] = state["tickets"][tid]

    def row(t):
        return [
            t,
            state["tickets"][t]["subject"],
            state["customers"][state["tickets"][t]["requester"]]["name"],
        ]

    return {
        "world": {"tickets": tickets},
        "group": group,
        "group_label": option_label(group),
        "targets": targets,
        "decoys": decoys,
        "rows": [row(t) for t in targets],
        "decoy_rows": [row(t) for t in decoys],
        "author": rng.choice(pools["authors"]),
        "docx": f"Documents/{group}_escalations.docx",
    }


def texts(P):
    return {
        "title": f"{P['group_label']} escalations",
        "lead": "Urgent tickets that are not solved yet, oldest first. Each has an owner by 10:00.",
        "signoff": f"Prepared by {P['author']}.",
    }


def initial_setup(P):
    hub_write("deskly", "set", P["world"])
    words = texts(P)
    doc = new_doc(P["author"])
    doc.add_heading(words["title"], level=1)
    doc.add_paragraph(words["lead"])
    add_table(doc, [["Ticket", "Subject", "Requester"]])
    doc.add_paragraph(words["signoff"])
    save_doc(doc, P["docx"])


def solve(P, *, mistake=None):
    doc = open_doc(P["docx"])
    listed = sorted(P["rows"] + P["decoy_rows"]) if mistake == "all_urgent" else P["rows"]
    for row in listed:
        cells = doc.tables[0].add_row().cells
        for cell, value in zip(cells, row, strict=True):
            cell.text = value
    save_doc(doc, P["docx"])
    if mistake != "report_only":
        state = hub_read("deskly", "state")["stored_state"]
        for tid in P["targets"]:  # the Assignee select; Assign to me also opens the ticket, which is allowed
            state["tickets"][tid]["assignee"] = state["current_user"]
        hub_write("deskly", "set_current", state)


def reward(P):
    import functools

    doc = functools.cache(lambda: open_doc(P["docx"]))
    go = functools.cache(lambda: hub_read("deskly", "go"))

    def rows():
        found = []
        for row in doc().tables[0].rows[1:] if doc().tables else []:
            cells = [norm(text_of(c._tc)) for c in row.cells]
            if any(cells):
                found.append(cells)
        return found

    @precondition("the report's other paragraphs are kept")
    def report_kept():
        return texts_kept(doc(), list(texts(P).values()))

    @precondition("the tickets are as the task describes and no other ticket changed")
    def deskly_as_described():
        before = go()["initial_state"]["tickets"]
        urgent = sorted(
            t
            for t, r in before.items()
            if r.get("group") == P["group"]
            and r.get("priority") == "urgent"
            and r.get("status") in ("new", "open", "pending")
        )
        return urgent == P["targets"] and unchanged_except(go(), "tickets", ids=P["targets"])

    @component("the table lists exactly the group's urgent unsolved tickets, in ticket order", 0.3)
    def ids():
        found = [r[0].upper() for r in rows()]
        hits = sum(f == t for f, t in zip(found, P["targets"], strict=False))
        return hits / max(len(found), len(P["targets"]))

    @component("each row gives the ticket's subject and requester", 0.3)
    def details():
        found = {r[0].upper(): r for r in rows() if len(r) >= 3}
        ok = sum(
            t in found
            and found[t][1].casefold() == norm(s).casefold()
            and found[t][2].casefold() == norm(q).casefold()
            for t, s, q in P["rows"]
        )
        return ok / len(P["rows"])

    @component("each of those tickets is assigned to you", 0.4)
    def taken():
        now = go()["current_state"]
        return sum(now["tickets"][t].get("assignee") == now["current_user"] for t in P["targets"]) / len(
            P["targets"]
        )


def demonstrate(P, screen):
    """Writer is on top with the report: find the header cell "Requester" (ctrl+H), close the dialog,
    End, then Tab from the table's last cell adds a row per ticket; save keeping docx. Then alt+tab to
    Chromium and press Assign to me on each ticket."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    stem = P["docx"].rsplit("/", 1)[1].rsplit(".", 1)[0]
    screen.wait_until(lambda: screen.has_window(stem), timeout_s=60, what="the report in Writer")
    yield [key("ctrl", "h")]
    screen.wait_until(lambda: screen.has_window("Find and Replace"), what="the Find and Replace dialog")
    label = screen.find(lambda e: e.role == "label" and e.name == "Find:", what="the Find: label")
    field = screen.find(
        lambda e: e.role == "text" and e.x > label.x and abs(e.y + e.h // 2 - (label.y + label.h // 2)) < 30,
        what="the Find field",
    )
    yield [click(field), key("ctrl", "a"), {"action": "type", "text": "Requester"}]
    yield [click(screen.find(named("push-button", "Find Next"), what="Find Next"))]
    yield [{"action": "wait", "time": 0.5}, key("Escape")]
    screen.wait_until(lambda: not screen.has_window("Find and Replace"), what="the dialog to close")
    yield [key("End")]
    for ticket, subject, requester in P["rows"]:
        yield [key("Tab"), {"action": "type", "text": f"{ticket}\t{subject}\t{requester}"}]
    yield from save_keeping_format(screen)
    yield [{"action": "wait", "time": 1.0}, key("alt", "tab"), {"action": "wait", "time": 1.0}]
    screen.wait_until(lambda: any("Deskly Support" in t for t in screen.windows()), what="Deskly in Chromium")
    yield from open_view(screen, "All tickets")
    for ticket, subject, _ in P["rows"]:
        yield from open_record(screen, "All tickets", subject, query=ticket)  # seeded subjects repeat
        yield from press(screen, "Assign to me")
        screen.find(
            lambda e: e.role == "menu-item" and e.name == "Ana Souza" and e.h <= 11,
            timeout_s=10,
            what="the ticket taken",
        )
    yield settle()
