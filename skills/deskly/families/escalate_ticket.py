"""Deskly: escalate a ticket (urgent, new owner, a reply). Data and wording: escalate_ticket.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, compose, open_record, open_view, settle
from skills.kit.webapp import records, seeded

AGENTS = {"a0002": "Ben Okafor", "a0003": "Chen Wei", "a0004": "Dara Singh"}


def draw(rng, pools):
    state = seeded("deskly")
    subjects = rng.sample(pools["subjects"], 4)
    tickets = {}
    for subject in subjects:
        tickets.update(records("deskly", "tickets", 1, rng, state, subject=subject))
    ticket = rng.choice(sorted(tickets))
    old = rng.choice(["low", "normal", "high"])
    agent = rng.choice(sorted(AGENTS))
    tickets[ticket].update(priority=old, status=rng.choice(["new", "open"]))
    if tickets[ticket].get("assignee") == agent:
        tickets[ticket]["assignee"] = "a0001"
    return {
        "world": {"tickets": tickets},
        "ticket": ticket,
        "subject": tickets[ticket]["subject"],
        "requester_name": state["customers"][tickets[ticket]["requester"]]["name"],
        "old_priority": old.capitalize(),
        "agent": agent,
        "agent_name": AGENTS[agent],
        "reply": rng.choice(pools["replies"]),
    }


def initial_setup(P):
    hub_write("deskly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("deskly", "state")["stored_state"]
    ticket = state["tickets"][P["ticket"]]
    ticket["assignee"] = P["agent"]
    if mistake != "not_urgent":
        ticket["priority"] = "urgent"
    if mistake != "no_reply":
        cid = next_id(state["comments"], "cm", 4)
        state["comments"][cid] = {
            "ticket": P["ticket"],
            "body": P["reply"],
            "author": state["current_user"],
            "created": "2024-06-14T10:00:00Z",
        }
    hub_write("deskly", "set_current", state)


def reward(P):
    go = hub_read("deskly", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the ticket is the one the task names, not yet urgent or with that agent")
    def ticket_as_described():
        old = before["tickets"].get(P["ticket"], {})
        return (
            old.get("subject") == P["subject"]
            and old.get("priority") != "urgent"
            and old.get("assignee") != P["agent"]
        )

    @precondition("no other ticket changed and no ticket or comment was deleted")
    def others_intact():
        return unchanged_except(go, "tickets", ids=[P["ticket"]]) and unchanged_except(go, "comments")

    @component("the ticket is urgent", 0.3)
    def urgent():
        return now["tickets"][P["ticket"]]["priority"] == "urgent"

    @component("the ticket is assigned to the named agent", 0.3)
    def assigned():
        return now["tickets"][P["ticket"]].get("assignee") == P["agent"]

    @component("its conversation has the reply", 0.4)
    def replied():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return any(c["ticket"] == P["ticket"] and mentions(c["body"], P["reply"]) for c in new)


def demonstrate(P, screen):
    """Open the ticket from All tickets, pick Urgent and the agent, then add the reply."""
    yield from open_view(screen, "All tickets")
    yield from open_record(screen, "All tickets", P["subject"])
    yield from choose(screen, "Priority", "Urgent")
    yield from choose(screen, "Assignee", P["agent_name"])
    yield from compose(screen, "comment", P["reply"])
    yield settle()
