"""Mail: label every issue of the named newsletters and archive them. Data and wording: archive_newsletters.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import button, click, named
from skills.mail.families._gui import menu_pick, search, wait_rows
from skills.mail.world import mail, person, routine, stamp


def draw(rng, pools):
    chosen = rng.sample(pools["newsletters"], rng.randint(2, 3))
    messages = routine(rng, rng.randint(3, 5), 101, 1)
    targets = []
    for name, address, _colleague, topics in chosen:
        issue, sender = rng.randint(40, 180), person([name, address])
        for topic in rng.sample(topics, rng.randint(2, 3)):
            issue, n = issue + 1, len(targets)
            subject = f"{name} #{issue}: {topic}"
            body = f"This week in {name}: {topic}. Read online. Unsubscribe at any time."
            when, read = stamp(rng, rng.randint(1, 12)), rng.random() < 0.3
            messages[f"e{120 + n}"] = mail("inbox", f"g{60 + n}", sender, subject, body, when, read=read)
            targets.append(f"e{120 + n}")
    n = len(targets)
    # A personal email from someone at one of the publications: not a newsletter.
    colleague = person(rng.choice(chosen)[2])
    body = "Hi Jordan, we'd love a guest post from you for a future issue. Interested?"
    guest = mail("inbox", f"g{60 + n}", colleague, "Would you write a guest post?", body, stamp(rng, 12))
    messages[f"e{120 + n}"] = guest
    # An older issue already archived: it is not in the Inbox and stays untouched.
    first = person(chosen[0][:2])
    subject, body = f"{first['name']} #12: Welcome issue", "Thanks for subscribing!"
    archived = mail("archive", f"g{61 + n}", first, subject, body, "2024-01-08T07:00:00Z", read=True)
    messages[f"e{121 + n}"] = archived
    return {
        "world": {"messages": messages},
        "targets": targets,
        "label_name": rng.choice(pools["label_names"]),
        "names": [c[0] for c in chosen],
        "addresses": [c[1] for c in chosen],
    }


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("mail", "state")["stored_state"]
    lid = P["label_name"].lower().replace(" ", "-")  # the UI's id for a new label (mail/static/model.js)
    state["labels"][lid] = {"name": P["label_name"], "color": "#5f3dc4"}
    for mid in P["targets"]:
        msg = state["messages"][mid]
        msg["folder"] = "inbox" if mistake == "not_archived" else "archive"
        if mistake != "unlabelled":
            msg["labels"] = [*msg["labels"], lid]
    hub_write("mail", "set_current", state)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    senders, targets = {a.casefold() for a in P["addresses"]}, P["targets"]
    label_ids = {lid for lid, lab in now["labels"].items() if squash(lab["name"]) == squash(P["label_name"])}

    @precondition("the newsletters are the inbox messages from the named addresses, and the label is new")
    def world_as_described():
        fresh = not any(squash(lab["name"]) == squash(P["label_name"]) for lab in before["labels"].values())
        inbox = [mid for mid, m in before["messages"].items() if m["folder"] == "inbox"]
        newsletters = [mid for mid in inbox if before["messages"][mid]["from"]["email"].casefold() in senders]
        return fresh and sorted(newsletters) == sorted(P["targets"])

    @precondition("every other message stays where it was, with its labels, and nothing was deleted")
    def others_intact():
        return unchanged_except(go, "messages", ids=P["targets"], fields=("folder", "labels"))

    @precondition("the labels that were there before are all kept, unchanged")
    def labels_intact():
        return unchanged_except(go, "labels")

    @component("each newsletter carries the new label", 0.4)
    def labelled():
        return sum(bool(label_ids & set(now["messages"][mid]["labels"])) for mid in targets) / len(targets)

    @component("each newsletter is archived", 0.6)
    def archived():
        return sum(now["messages"][mid]["folder"] == "archive" for mid in targets) / len(targets)


def demonstrate(P, screen):
    """Create the label, then for each newsletter: search its address, select all its issues, label
    them from the bulk bar, select them again and archive them."""
    yield [click(button(screen, "New label"))]
    screen.find(named("dialog", "New label"), what="the New label dialog")
    yield [{"action": "type", "text": P["label_name"] + "\n"}]  # the name field has the focus
    screen.find(lambda e: e.role == "link" and e.name == P["label_name"], what="the new label in the sidebar")
    messages = P["world"]["messages"]
    for address in P["addresses"]:
        issues = [
            messages[mid]["subject"] for mid in P["targets"] if messages[mid]["from"]["email"] == address
        ]
        yield from search(screen, address)
        wait_rows(screen, issues, f"the issues from {address}")
        yield [click(screen.find(named("check-box", "Select all"), what="Select all"))]
        yield from menu_pick(screen, "Label", P["label_name"])
        wait_rows(screen, issues, f"the label on the issues from {address}", label=P["label_name"])
        yield [click(screen.find(named("check-box", "Select all"), what="Select all"))]
        yield [click(button(screen, "Archive"))]
        wait_rows(screen, [], f"the issues from {address} to leave the Inbox")
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
