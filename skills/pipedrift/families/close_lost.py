"""Pipedrift: mark every open deal of one organisation lost, with the reason. Data and wording:
close_lost.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog
from skills.kit.teach_web import chosen, open_record, open_view, press, settle, showing
from skills.kit.webapp import records, seeded

OPEN = ["qualified", "contact_made", "demo_scheduled", "proposal_sent", "negotiation"]


def draw(rng, pools):
    state = seeded("pipedrift")
    org = rng.choice(pools["orgs"])
    other = rng.choice([o for o in pools["orgs"] if o != org])
    titles = rng.sample(pools["titles"], 5)
    n_targets = rng.randint(2, 3)
    deals = {}
    for index, title in enumerate(titles[: n_targets + 2]):
        fixed = {"title": title, "organisation": org, "stage": rng.choice(OPEN[:4]), "lost_reason": ""}
        if index == n_targets:
            fixed["stage"] = "won"
        if index == n_targets + 1:
            fixed["organisation"] = other
        deals.update(records("pipedrift", "deals", 1, rng, state, **fixed))
    targets = sorted(d for d, r in state["deals"].items() if r["organisation"] == org and r["stage"] in OPEN)
    return {
        "world": {"deals": deals},
        "org": org,
        "org_name": state["organisations"][org]["name"],
        "targets": targets,
        "titles": [state["deals"][d]["title"] for d in targets],
        "reason": rng.choice(pools["reasons"]),
    }


def initial_setup(P):
    hub_write("pipedrift", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pipedrift", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for did in targets:
        state["deals"][did]["stage"] = "lost"
        if mistake != "no_reason":
            state["deals"][did]["lost_reason"] = P["reason"]
    hub_write("pipedrift", "set_current", state)


def reward(P):
    go = hub_read("pipedrift", "go")
    now, before = go["current_state"], go["initial_state"]
    open_stages = ("qualified", "contact_made", "demo_scheduled", "proposal_sent", "negotiation")

    @precondition("the organisation's open deals are exactly the targets")
    def world_as_described():
        theirs = sorted(
            d
            for d, r in before["deals"].items()
            if r["organisation"] == P["org"] and r["stage"] in open_stages
        )
        return theirs == sorted(P["targets"])

    @precondition("no other deal changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "deals", ids=P["targets"])

    @component("each open deal of the organisation is lost", 0.6)
    def lost():
        return sum(now["deals"][d]["stage"] == "lost" for d in P["targets"]) / len(P["targets"])

    @component("each carries the lost reason", 0.4)
    def reasoned():
        return sum(
            squash(now["deals"][d].get("lost_reason") or "") == squash(P["reason"]) for d in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each open deal of the organisation: open its card, press Mark as lost, type the reason in
    the dialog and confirm; close the pane so every stage column is on screen for the next one."""
    yield from open_view(screen, "Deals")
    for title in P["titles"]:
        yield from open_record(screen, "Deals", title)
        yield from press(screen, "Mark as lost")
        yield [click(in_dialog(screen, "entry", "Lost reason")), {"action": "type", "text": P["reason"]}]
        yield [click(in_dialog(screen, "push-button", "Mark as lost"))]
        screen.wait_until(
            lambda: not screen.elements(lambda e: e.role == "dialog"),
            timeout_s=10,
            what="the dialog to close",
        )
        chosen(screen, "Stage", "Lost")
        yield from press(screen, "Close details")
        screen.wait_until(
            lambda: showing(screen, "Deals"), timeout_s=10, what="the board without a deal open"
        )
    yield settle()
