"""Chat: set up a project channel, post the kickoff agenda and pin it. Data and wording: channel_kickoff.yaml."""

from skills.chat.families._gui import message_text, row_button, send, showing
from skills.chat.world import CHANNEL_NAMES, ME, PURPOSES, channel, channel_id, people
from skills.kit.guest.hub import (
    added_ids,
    chat_channel,
    chat_post,
    hub_read,
    hub_write,
    squash,
    unchanged_except,
)
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, hover, named


def draw(rng, pools):
    users, everyone = people(rng, rng.randint(2, 4))
    name = rng.choice(CHANNEL_NAMES)
    members = rng.sample(sorted(everyone), rng.randint(2, 4))
    # An archived channel with a similar name is a trap: the new one must be created, not revived.
    old = f"{name}-old"
    archived = channel(old, [ME, *members[:1]], archived=True, created="2023-05-02T09:00:00Z")
    return {
        "world": {"users": users, "channels": {channel_id(old): archived}},
        "name": name,
        "purpose": PURPOSES[name],
        "private": rng.random() < 0.4,
        "members": members,
        "member_names": [everyone[uid] for uid in members],
        "agenda": rng.sample(pools["agenda"], rng.randint(3, 5)),
        "when": f"{rng.choice(pools['weekdays'])} at {rng.randint(9, 16)}:{rng.choice(['00', '30'])}",
    }


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("chat", "state")["stored_state"]
    cid = chat_channel(state, P["name"], P["purpose"], P["private"], P["members"])
    agenda = "\n".join(f"{n}. {item}" for n, item in enumerate(P["agenda"], 1))
    chat_post(state, cid, f"Kickoff on {P['when']}. Agenda:\n{agenda}", pinned=mistake != "unpinned")
    hub_write("chat", "set_current", state)


def reward(P):
    go = hub_read("chat", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]

    def the_channel():
        return next((cid for cid, c in now["channels"].items() if c["name"] == P["name"]), None)

    def agenda_messages():
        cid = the_channel()
        new = [now["messages"][mid] for mid in added_ids(go, "messages")]
        return [m for m in new if cid and m["conversation"] == cid and m["user"] == me and not m["thread"]]

    def agenda_share(msg):
        return sum(squash(item) in squash(msg["text"]) for item in P["agenda"]) / len(P["agenda"])

    @precondition("no channel of that name existed before")
    def fresh_name():
        return all(c["name"] != P["name"] for c in before["channels"].values())

    @precondition("existing channels and messages were left alone")
    def others_intact():
        return unchanged_except(go, "channels", fields=("archived",)) and unchanged_except(go, "messages")

    @component("the channel exists, open, with the requested description and visibility", 0.25)
    def created():
        c = now["channels"].get(the_channel())
        as_asked = c and squash(c["purpose"]) == squash(P["purpose"]) and bool(c["private"]) == P["private"]
        return bool(as_asked) and not c["archived"]

    @component("its members are you and exactly the named people", 0.25)
    def members():
        have = set(now["channels"].get(the_channel(), {}).get("members", []))
        strangers = have - {me, *P["members"]}
        return 0.0 if strangers else sum(uid in have for uid in P["members"]) / len(P["members"])

    @component("you posted the agenda with every item in the channel", 0.3)
    def agenda():
        return max([agenda_share(msg) for msg in agenda_messages()], default=0.0)

    @component("the agenda message is pinned", 0.2)
    def pinned():
        return any(msg["pinned"] and agenda_share(msg) == 1.0 for msg in agenda_messages())


def demonstrate(P, screen):
    """Create the channel from the sidebar's "+", add each person in its details dialog, then post
    the agenda and pin it from the message's "More actions" menu."""
    yield [click(screen.find(named("push-button", "Add channel"), what="the sidebar's Add channel"))]
    yield [click(screen.find(named("menu-item", "Create a new channel"), what="the Add channel menu"))]
    screen.find(named("dialog", "Create a channel"), what="the Create a channel dialog")
    yield [{"action": "type", "text": P["name"]}]  # the Name field has the focus
    description = screen.find(named("entry", "Description (optional)"), what="the Description field")
    yield [click(description), {"action": "type", "text": P["purpose"]}]
    if P["private"]:
        yield [click(screen.find(named("check-box", "Make private"), what="the Make private box"))]
    yield [click(screen.find(named("push-button", "Create"), what="the Create button"))]
    screen.wait_until(lambda: showing(screen, P["name"]), timeout_s=15, what=f"#{P['name']} to open")
    for person in P["member_names"]:  # the dialog adds one member per save
        details = screen.find(
            lambda e: e.role == "push-button" and e.name.startswith("Channel details"), what="Channel details"
        )
        yield [click(details)]
        screen.find(named("dialog", f"#{P['name']}"), what="the channel details dialog")
        # Topic has the focus; two tabs reach the "Add a member" list, and typing a name picks it.
        yield [{"action": "key", "keys": ["tab"]}, {"action": "key", "keys": ["tab"]}]
        yield [{"action": "type", "text": person}]
        screen.find(named("menu-item", person), what=f"{person} picked in Add a member")
        yield [click(screen.find(named("push-button", "Save changes"), what="Save changes"))]
        screen.wait_until(
            lambda: not screen.elements(named("dialog", f"#{P['name']}")),
            timeout_s=10,
            what="the dialog to close",
        )
    agenda = "; ".join(f"{n}. {item}" for n, item in enumerate(P["agenda"], 1))
    text = f"Kickoff on {P['when']}. Agenda: {agenda}"
    yield from send(screen, f"Message #{P['name']}", text)
    posted = message_text(screen, text)
    yield [hover(posted)]
    yield [click(row_button(screen, posted, "More actions"))]
    yield [click(screen.find(named("menu-item", "Pin to channel"), what="the message's Pin to channel"))]
    screen.find(named("static", "Pinned"), timeout_s=10, what="the message's Pinned flag")
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
