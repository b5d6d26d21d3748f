"""Deskly: reply to and solve every unsolved ticket of one customer. Data and wording: close_out_customer.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import compose, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("deskly")
    name = rng.choice(pools["customers"])
    company = rng.choice(pools["companies"])
    (customer,) = records("deskly", "customers", 1, rng, state, name=name, company=company)
    subjects = rng.sample(pools["subjects"], 6)
    n_targets = rng.randint(2, 3)
    tickets = {}
    for index, subject in enumerate(subjects):
        mine = index < n_targets + 1  # the customer's: the targets, then one already solved
        status = rng.choice(["new", "open", "pending"]) if index != n_targets else "solved"
        fixed = {"subject": subject, "status": status}
        if mine:
            fixed["requester"] = customer
        tickets.update(records("deskly", "tickets", 1, rng, state, **fixed))
    ids = list(tickets)
    for tid in ids[n_targets + 1 :]:  # decoys: unsolved tickets of someone else
        if tickets[tid]["requester"] == customer:
            tickets[tid]["requester"] = "c0001"
    return {
        "world": {"customers": {customer: state["customers"][customer]}, "tickets": tickets},
        "customer": customer,
        "customer_name": name,
        "company": company,
        "targets": ids[:n_targets],
        "subjects": [tickets[t]["subject"] for t in ids[:n_targets]],
        "done": ids[n_targets],
        "decoys": ids[n_targets + 1 :],
        "reply": rng.choice(pools["replies"]),
    }


def initial_setup(P):
    hub_write("deskly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("deskly", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for tid in targets:
        if mistake != "no_replies":
            cid = next_id(state["comments"], "cm", 4)
            state["comments"][cid] = {
                "ticket": tid,
                "body": P["reply"],
                "author": state["current_user"],
                "created": "2024-06-14T10:00:00Z",
            }
        state["tickets"][tid]["status"] = "solved"
    hub_write("deskly", "set_current", state)


def reward(P):
    go = hub_read("deskly", "go")
    now, before = go["current_state"], go["initial_state"]
    open_states = ("new", "open", "pending")

    @precondition("the customer's unsolved tickets are the ones the task implies")
    def world_as_described():
        theirs = sorted(
            tid
            for tid, t in before["tickets"].items()
            if t["requester"] == P["customer"] and t["status"] in open_states
        )
        return theirs == sorted(P["targets"])

    @precondition("no other ticket changed and no ticket or comment was deleted")
    def others_intact():
        return unchanged_except(go, "tickets", ids=P["targets"]) and unchanged_except(go, "comments")

    @component("each of the customer's unsolved tickets is solved", 0.6)
    def solved():
        return sum(now["tickets"][t]["status"] == "solved" for t in P["targets"]) / len(P["targets"])

    @component("each of them got the closing reply", 0.4)
    def replied():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return sum(
            any(c["ticket"] == t and mentions(c["body"], P["reply"]) for c in new) for t in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each of the customer's unsolved tickets (filtered by requester in the task's world): open
    it, add the reply, then press Mark as solved."""
    yield from open_view(screen, "All tickets")
    for subject in P["subjects"]:
        yield from open_record(screen, "All tickets", subject)
        yield from compose(screen, "comment", P["reply"])
        yield from press(screen, "Mark as solved")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Reopen", timeout_s=10, what="the ticket solved"
        )
    yield settle()
