"""Pipedrift: move a deal to its next stage and add a follow-up activity. Data and wording: advance_deal.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, compose, open_record, open_view, settle
from skills.kit.webapp import option_label, records, seeded

STAGES = ["qualified", "contact_made", "demo_scheduled", "proposal_sent", "negotiation"]


def draw(rng, pools):
    state = seeded("pipedrift")
    deals = {}
    for title in rng.sample(pools["titles"], 3):
        fixed = {"title": title, "organisation": rng.choice(pools["orgs"]), "stage": rng.choice(STAGES[:3])}
        deals.update(records("pipedrift", "deals", 1, rng, state, **fixed))
    deal = rng.choice(sorted(deals))
    old = deals[deal]["stage"]
    stage = STAGES[STAGES.index(old) + rng.randint(1, 2)]
    return {
        "world": {"deals": deals},
        "deal": deal,
        "title": deals[deal]["title"],
        "old_stage": old,
        "old_stage_label": option_label(old),
        "stage": stage,
        "stage_label": option_label(stage),
        "followup": rng.choice(pools["followups"]),
    }


def initial_setup(P):
    hub_write("pipedrift", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pipedrift", "state")["stored_state"]
    if mistake != "no_activity":
        state["activities"][next_id(state["activities"], "ac", 4)] = {
            "subject": P["followup"],
            "deal": P["deal"],
            "type": "task",
            "owner": state["current_user"],
            "created": "2024-06-14T10:00:00Z",
        }
    if mistake != "stage_unchanged":
        state["deals"][P["deal"]]["stage"] = P["stage"]
    hub_write("pipedrift", "set_current", state)


def reward(P):
    go = hub_read("pipedrift", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the deal is the one the task names, at its old stage")
    def deal_as_described():
        old = before["deals"].get(P["deal"], {})
        return old.get("title") == P["title"] and old.get("stage") == P["old_stage"]

    @precondition("no other deal changed and no deal or activity was deleted")
    def others_intact():
        return unchanged_except(go, "deals", ids=[P["deal"]]) and unchanged_except(go, "activities")

    @component("the deal is in the new stage", 0.6)
    def moved():
        return now["deals"][P["deal"]]["stage"] == P["stage"]

    @component("the deal has the follow-up activity", 0.4)
    def planned():
        new = [now["activities"][a] for a in added_ids(go, "activities")]
        return any(a.get("deal") == P["deal"] and squash(a["subject"]) == squash(P["followup"]) for a in new)


def demonstrate(P, screen):
    """Open the deal's card on the board, pick the new Stage, then add the activity."""
    yield from open_view(screen, "Deals")
    yield from open_record(screen, "Deals", P["title"])
    yield from choose(screen, "Stage", P["stage_label"])
    yield from compose(screen, "activity", P["followup"])
    yield settle()
