"""Metricly: read a channel's revenue in a region off the dashboard and report it. Data and wording:
channel_report.yaml."""

from skills.kit.guest.hub import added_ids, amounts_in, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import option_label, records, seeded


def draw(rng, pools):
    state = seeded("metricly")
    channel = rng.choice(pools["channels"])
    region = rng.choice(pools["regions"])
    elsewhere = rng.choice([r for r in pools["regions"] if r != region])
    names = rng.sample(pools["names"], 4)
    campaigns = {}
    for index, name in enumerate(names):
        fixed = {"name": name, "channel": channel, "region": region if index < 3 else elsewhere}
        fixed["revenue"] = round(rng.randint(2000, 30000) + rng.choice([0, 0.5, 0.25]), 2)
        campaigns.update(records("metricly", "campaigns", 1, rng, state, **fixed))
    rows = state["campaigns"].values()
    total = round(
        sum(c.get("revenue") or 0 for c in rows if c["channel"] == channel and c["region"] == region), 2
    )
    everywhere = round(sum(c.get("revenue") or 0 for c in rows if c["channel"] == channel), 2)
    return {
        "world": {"campaigns": campaigns},
        "channel": channel,
        "channel_name": state["channels"][channel]["name"],
        "region": region,
        "region_label": option_label(region),
        "title": rng.choice(pools["titles"]),
        "schedule": rng.choice(pools["schedules"]),
        "total": total,
        "total_text": f"${total:,.2f}",
        "all_regions": everywhere,
        "summary": f"{state['channels'][channel]['name']} revenue in {option_label(region)}: ${total:,.2f}.",
        "wrong_summary": f"{state['channels'][channel]['name']} revenue: ${everywhere:,.2f}.",
    }


def initial_setup(P):
    hub_write("metricly", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("metricly", "state")["stored_state"]
    state["reports"][next_id(state["reports"], "rp", 4)] = {
        "title": P["title"],
        "summary": P["wrong_summary"] if mistake == "wrong_total" else P["summary"],
        "channel": P["channel"],
        "schedule": "none" if mistake == "no_schedule" else P["schedule"],
        "status": "draft",
        "owner": state["current_user"],
        "created": "2024-06-14T10:00:00Z",
    }
    hub_write("metricly", "set_current", state)


def reward(P):
    go = hub_read("metricly", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["reports"][r] for r in added_ids(go, "reports")]
    written = [r for r in new if squash(r.get("title", "")) == squash(P["title"])]

    @precondition("the region's revenue for the channel is the figure the task implies, and differs overall")
    def world_as_described():
        rows = [c for c in before["campaigns"].values() if c["channel"] == P["channel"]]
        total = sum(c.get("revenue") or 0 for c in rows if c["region"] == P["region"])
        return abs(total - P["total"]) < 0.005 and abs(P["all_regions"] - P["total"]) > 1

    @precondition("no campaign or existing report changed, and only one report was added")
    def others_intact():
        return unchanged_except(go, "campaigns", ids=[]) and unchanged_except(go, "reports") and len(new) <= 1

    @component("a report with that title exists on the channel", 0.3)
    def exists():
        return any(r.get("channel") == P["channel"] for r in written)

    @component("it is scheduled as asked", 0.3)
    def scheduled():
        return any(r.get("schedule") == P["schedule"] for r in written)

    @component("its summary states the channel's revenue in the region", 0.4)
    def figure():
        return any(
            any(abs(a - P["total"]) < 0.01 for a in amounts_in(r.get("summary") or "")) for r in written
        )


def demonstrate(P, screen):
    """Filter the Overview by channel and region and read the Revenue tile; then New report on
    Reports with the title, the figure in the summary, the channel and the schedule."""
    yield from open_view(screen, "Overview")
    yield from choose(screen, "Filter by channel", P["channel_name"])
    yield from choose(screen, "Filter by region", P["region_label"])
    tile = f"Revenue: {P['total_text']}"
    screen.find(
        lambda e: e.name == tile or (e.role == "static" and e.name == P["total_text"]),
        timeout_s=10,
        what="the Revenue tile",
    )
    yield from open_view(screen, "Reports")
    yield from press(screen, "New report")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New report dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from type_field(screen, "Summary", P["summary"])
    yield from choose(screen, "Channel", P["channel_name"])
    yield from choose(screen, "Schedule", option_label(P["schedule"]))
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Create report").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield settle()
