"""Metricly: pause the live campaigns of a channel that lose money, annotating each. Data and
wording: pause_losers.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import compose, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("metricly")
    channel = rng.choice(pools["channels"])
    other = rng.choice([c for c in pools["channels"] if c != channel])
    names = rng.sample(pools["names"], 6)
    n_targets = rng.randint(2, 3)
    campaigns = {}
    for index, name in enumerate(names):
        revenue = float(rng.choice([1800, 2400, 3150, 4200, 5600]))
        losing = index < n_targets or index >= n_targets + 1  # the profitable decoy sits at n_targets
        spend = revenue + rng.choice([300, 650, 1200]) if losing else revenue - rng.choice([500, 900])
        status = "paused" if index == n_targets + 1 else "live"
        owner_channel = other if index == n_targets + 2 else channel
        campaigns.update(
            records(
                "metricly",
                "campaigns",
                1,
                rng,
                state,
                name=name,
                channel=owner_channel,
                status=status,
                revenue=revenue,
                spend=spend,
            )
        )
    targets = sorted(
        cid
        for cid, c in state["campaigns"].items()
        if c["channel"] == channel
        and c["status"] == "live"
        and (c.get("spend") or 0) > (c.get("revenue") or 0)
    )
    return {
        "world": {"campaigns": campaigns},
        "channel": channel,
        "channel_name": state["channels"][channel]["name"],
        "targets": targets,
        "names": [state["campaigns"][t]["name"] for t in targets],
        "note": rng.choice(pools["notes"]),
    }


def initial_setup(P):
    hub_write("metricly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("metricly", "state")["stored_state"]
    targets = P["targets"][:-1] if mistake == "one_left" else P["targets"]
    for cid in targets:
        if mistake != "no_note":
            state["annotations"][next_id(state["annotations"], "nt", 4)] = {
                "campaign": cid,
                "note": P["note"],
                "author": state["current_user"],
                "created": "2024-06-14T10:00:00Z",
            }
        state["campaigns"][cid]["status"] = "paused"
    hub_write("metricly", "set_current", state)


def reward(P):
    go = hub_read("metricly", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the channel's live money-losing campaigns are exactly the targets")
    def world_as_described():
        losing = sorted(
            cid
            for cid, c in before["campaigns"].items()
            if c["channel"] == P["channel"]
            and c["status"] == "live"
            and (c.get("spend") or 0) > (c.get("revenue") or 0)
        )
        return losing == sorted(P["targets"])

    @precondition("no other campaign changed and no campaign or annotation was deleted")
    def others_intact():
        return unchanged_except(go, "campaigns", ids=P["targets"]) and unchanged_except(go, "annotations")

    @component("each losing campaign is paused", 0.6)
    def paused():
        return sum(now["campaigns"][c]["status"] == "paused" for c in P["targets"]) / len(P["targets"])

    @component("each paused campaign carries the annotation", 0.4)
    def annotated():
        new = [now["annotations"][a] for a in added_ids(go, "annotations")]
        return sum(
            any(a["campaign"] == c and mentions(a["note"], P["note"]) for a in new) for c in P["targets"]
        ) / len(P["targets"])


def demonstrate(P, screen):
    """For each losing campaign (read off the sheet's Spend and Revenue): open it from the Campaign
    sheet, add the annotation, then press Pause campaign."""
    yield from open_view(screen, "Campaign sheet")
    for name in P["names"]:
        yield from open_record(screen, "Campaign sheet", name)
        yield from compose(screen, "annotation", P["note"])
        yield from press(screen, "Pause campaign")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Resume campaign", timeout_s=10, what="the pause"
        )
    yield settle()
