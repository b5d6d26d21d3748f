"""Mail: forward a client's email with its attachment to a colleague and label it. Data and wording: label_and_forward.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mail_send, new_sent, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.mail.families._gui import fill, menu_pick, open_message, respond, search, send, wait_rows
from skills.mail.world import COLLEAGUES, CONTACTS, mail, person, routine, stamp


def draw(rng, pools):
    messages = routine(rng, rng.randint(3, 5), 101, 1)
    sender = person(rng.choice(CONTACTS))
    subject, body, attachment = rng.choice(pools["topics"])
    target = f"e{120 + rng.randint(0, 9)}"
    when, read = stamp(rng, 13), rng.random() < 0.5
    attached = [(attachment, rng.randint(40, 900) * 1000, pools["types"][attachment.rsplit(".", 1)[1]])]
    messages[target] = mail("inbox", "g50", sender, subject, body, when, read=read, attachments=attached)
    # The same sender wrote again about something else: the older email is the one to forward.
    other = rng.choice([t for t in pools["topics"] if t[0] != subject])
    messages["e131"] = mail("inbox", "g51", sender, other[0], other[1], stamp(rng, 14))
    picked = rng.sample(sorted(pools["new_labels"].items()), 2)
    labels = {lid: {"name": name, "color": "#0c8599"} for lid, name in picked}
    label = rng.choice([*labels, "work"])
    return {
        "world": {"messages": messages, "labels": labels},
        "target": target,
        "subject": subject,
        "sender": sender["name"],
        "attachment": attachment,
        "colleague": list(rng.choice(COLLEAGUES)),
        "label": label,
        "label_name": labels[label]["name"] if label in labels else "Work",
    }


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("mail", "state")["stored_state"]
    src = state["messages"][P["target"]]
    if mistake == "replied":  # answered the sender instead
        thanks = "Thanks, forwarding internally."
        mail_send(state, [src["from"]], f"Re: {src['subject']}", thanks, P["target"])
    else:
        body = f"FYI\n\n---------- Forwarded message ----------\nFrom: {src['from']['email']}\n\n"
        to = [{"name": P["colleague"][0], "email": P["colleague"][1]}]
        mail_send(state, to, f"Fwd: {src['subject']}", body + src["body"], attachments=src["attachments"])
    if mistake != "unlabelled":
        src["labels"] = [*src["labels"], P["label"]]
    hub_write("mail", "set_current", state)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    colleague = P["colleague"][1].casefold()

    @precondition("the email and the label are there, the label not yet on it")
    def world_as_described():
        src = before["messages"][P["target"]]
        as_told = squash(src["subject"]) == squash(P["subject"]) and P["label"] in before["labels"]
        return as_told and P["label"] not in src["labels"]

    @precondition("no message was deleted, moved or relabelled besides the target")
    def others_intact():
        folders_ok = unchanged_except(go, "messages", fields=("folder",))
        return folders_ok and unchanged_except(go, "messages", ids=[P["target"]], fields=("labels",))

    @component("the email was forwarded to the colleague with its attachment", 0.6)
    def forwarded():
        def forward(m):
            to_colleague = any(p["email"].casefold() == colleague for p in m["to"] + m["cc"])
            attached = P["attachment"] in {a["name"] for a in m.get("attachments") or []}
            return to_colleague and attached and squash(P["subject"]) in squash(m["subject"])

        return any(forward(m) for m in new_sent(go))

    @component("the email carries the label", 0.4)
    def labelled():
        return P["label"] in now["messages"][P["target"]]["labels"]


def demonstrate(P, screen):
    """Find the email by its subject, label it from the reading pane's Labels menu, then forward it
    (the forward carries the attachment) to the colleague."""
    yield from search(screen, P["subject"])
    wait_rows(screen, [P["subject"]], f"the email {P['subject']!r}")
    yield from open_message(screen, P["subject"])
    yield from menu_pick(screen, "Labels", P["label_name"])
    screen.find(
        lambda e: e.role == "push-button" and e.name == f"Remove label {P['label_name']}",
        timeout_s=15,
        what=f"the {P['label_name']} label on the email",
    )
    yield from respond(screen, "Forward")
    yield from fill(screen, "To", P["colleague"][1])
    yield from send(screen)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
