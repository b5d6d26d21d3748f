"""Metricly: correct a campaign's conversions and revenue in the grid. Data and wording:
correct_figures.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import open_view, settle
from skills.kit.webapp import records, seeded
from skills.metricly.families._gui import type_amount


def draw(rng, pools):
    state = seeded("metricly")
    campaigns = {}
    for name in rng.sample(pools["names"], 3):
        campaigns.update(records("metricly", "campaigns", 1, rng, state, name=name, status="live"))
    campaign = rng.choice(sorted(campaigns))
    conversions = rng.choice([118, 164, 203, 247, 312, 389, 455])
    revenue = round(conversions * rng.choice([38.5, 42.0, 47.25, 55.0]), 2)
    campaigns[campaign].update(conversions=float(conversions * 2), revenue=round(revenue * 2, 2))
    return {
        "world": {"campaigns": campaigns},
        "campaign": campaign,
        "name": campaigns[campaign]["name"],
        "old_conversions": conversions * 2,
        "old_revenue": round(revenue * 2, 2),
        "old_revenue_text": f"{revenue * 2:,.2f}",
        "conversions": conversions,
        "revenue": revenue,
        "revenue_text": f"{revenue:,.2f}",
    }


def initial_setup(P):
    hub_write("metricly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("metricly", "state")["stored_state"]
    campaign = state["campaigns"][P["campaign"]]
    if mistake != "revenue_only":
        campaign["conversions"] = P["conversions"]
    if mistake != "conversions_only":
        campaign["revenue"] = P["revenue"]
    hub_write("metricly", "set_current", state)


def reward(P):
    go = hub_read("metricly", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the campaign is the one the task names, with the double-counted figures")
    def campaign_as_described():
        old = before["campaigns"].get(P["campaign"], {})
        return old.get("name") == P["name"] and float(old.get("conversions") or 0) == P["old_conversions"]

    @precondition("no other campaign changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "campaigns", ids=[P["campaign"]])

    @component("the conversions are corrected", 0.5)
    def conversions():
        return float(now["campaigns"][P["campaign"]].get("conversions") or 0) == P["conversions"]

    @component("the revenue is corrected", 0.5)
    def revenue():
        return abs(float(now["campaigns"][P["campaign"]].get("revenue") or 0) - P["revenue"]) < 0.005


def demonstrate(P, screen):
    """On the Campaign sheet, type both figures into the campaign's row cells."""
    yield from open_view(screen, "Campaign sheet")
    yield from type_amount(screen, f"Conversions of {P['name']}", str(P["conversions"]))
    yield from type_amount(screen, f"Revenue of {P['name']}", f"{P['revenue']:.2f}")
    yield settle()
