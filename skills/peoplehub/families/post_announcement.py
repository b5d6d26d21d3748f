"""PeopleHub: post an announcement to one audience and pin it. Data and wording: post_announcement.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_web import choose, open_record, open_view, press, settle, type_field
from skills.kit.webapp import option_label

AUDIENCES = ["engineering", "sales", "people_ops", "finance"]


def draw(rng, pools):
    headline, body = rng.choice(pools["items"])
    audience = rng.choice(AUDIENCES)
    return {
        "headline": headline,
        "body": body,
        "audience": audience,
        "audience_label": option_label(audience),
    }


def initial_setup(P):
    hub_write("peoplehub", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("peoplehub", "state")["stored_state"]
    state["announcements"][next_id(state["announcements"], "AN", 4)] = {
        "headline": P["headline"],
        "author": state["current_user"],
        "audience": "everyone" if mistake == "everyone" else P["audience"],
        "body": P["body"],
        "pinned": mistake != "not_pinned",
        "posted": "2024-05-20T09:30:00Z",
    }
    hub_write("peoplehub", "set_current", state)


def reward(P):
    go = hub_read("peoplehub", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["announcements"][a] for a in added_ids(go, "announcements")]
    posted = [a for a in new if squash(a["headline"]) == squash(P["headline"])]

    @precondition("no announcement with that headline exists yet")
    def world_as_described():
        return not any(
            squash(a["headline"]) == squash(P["headline"]) for a in before["announcements"].values()
        )

    @precondition("no existing announcement changed or was deleted, and only one was added")
    def others_intact():
        return unchanged_except(go, "announcements") and len(new) <= 1

    @component("the announcement is posted with its text", 0.4)
    def exists():
        return any(mentions(a.get("body", ""), P["body"]) for a in posted)

    @component("it is addressed to the named audience", 0.3)
    def addressed():
        return any(a.get("audience") == P["audience"] for a in posted)

    @component("it is pinned", 0.3)
    def pinned():
        return any(a.get("pinned") is True for a in posted)


def demonstrate(P, screen):
    """New announcement on Announcements (headline, audience, body), then open it and press Pin."""
    yield from open_view(screen, "Announcements")
    yield from press(screen, "New announcement")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New announcement dialog")
    yield from type_field(screen, "Headline", P["headline"])
    yield from choose(screen, "Audience", P["audience_label"])
    yield from type_field(screen, "Body", P["body"])
    yield [click(in_dialog(screen, "push-button", "Create announcement"))]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield from open_record(screen, "Announcements", P["headline"])
    yield from press(screen, "Pin")
    screen.find(named("push-button", "Unpin"), timeout_s=10, what="the announcement pinned")
    yield settle()
