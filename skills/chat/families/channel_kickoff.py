"""Chat: set up a project channel (description, members), post the kickoff agenda and pin it (medium)."""

from __future__ import annotations

import random

from skills._web.hubkit import (
    WEB_HELPERS,
    added_ids,
    hub_read,
    hub_write,
    next_id,
    now_iso,
    removed_ids,
    squash,
)
from skills.chat.families._chatworld import CHANNEL_NAMES, ME, PURPOSES, channel, channel_id, people
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

AGENDA = ["Goals and success metrics", "Scope and non-goals", "Timeline and milestones", "Roles and owners",
          "Risks and open questions", "Budget check", "Launch checklist", "Customer research recap",
          "Dependencies on other teams", "Communication plan"]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def kick_off(P, pin):
    state = hub_read("chat", "state")["stored_state"]
    me = state["current_user"]
    cid = "c_" + P["name"].replace("-", "_")
    state["channels"][cid] = {"name": P["name"], "topic": "", "purpose": P["purpose"], "private": P["private"],
                              "archived": False, "starred": False, "members": [me, *P["members"]],
                              "created_by": me, "created": now_iso()}  # fmt: skip
    text = f"Kickoff on {P['when']}. Agenda:\n" + "\n".join(f"{n}. {item}" for n, item in enumerate(P["agenda"], 1))
    mid = next_id(state["messages"], "m", 4)
    state["messages"][mid] = {"conversation": cid, "user": me, "text": text, "ts": now_iso(), "thread": None,
                              "reactions": {}, "edited": False, "pinned": pin, "files": []}  # fmt: skip
    hub_write("chat", "set_current", state)


def golden_patch(P):
    kick_off(P, True)


def near_miss(P):
    # Everything is set up, but the agenda is left unpinned.
    kick_off(P, False)


def reward(P):
    go = hub_read("chat", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]

    def the_channel():
        found = [cid for cid, c in now["channels"].items() if c["name"] == P["name"]]
        return found[0] if found else None

    def agenda_messages():
        cid = the_channel()
        return [now["messages"][mid] for mid in added_ids(go, "messages")
                if cid and now["messages"][mid]["conversation"] == cid and now["messages"][mid]["user"] == me
                and not now["messages"][mid]["thread"]]  # fmt: skip

    def agenda_share(msg):
        return sum(squash(item) in squash(msg["text"]) for item in P["agenda"]) / len(P["agenda"])

    @precondition("no channel of that name existed before")
    def fresh_name():
        return all(c["name"] != P["name"] for c in before["channels"].values())

    @precondition("existing channels and messages were left alone")
    def others_intact():
        return not removed_ids(go, "messages") and not removed_ids(go, "channels") and all(
            now["channels"][cid]["archived"] == c["archived"] for cid, c in before["channels"].items())

    @component("the channel exists, open, with the requested description and visibility", 0.25)
    def created():
        cid = the_channel()
        c = now["channels"][cid] if cid else None
        return bool(c) and not c["archived"] and squash(c["purpose"]) == squash(P["purpose"]) and \
            bool(c["private"]) == P["private"]  # fmt: skip

    @component("its members are you and exactly the named people", 0.25)
    def members():
        cid = the_channel()
        if not cid:
            return 0.0
        have = set(now["channels"][cid]["members"])
        if have - {me, *P["members"]}:
            return 0.0
        return sum(uid in have for uid in P["members"]) / len(P["members"])

    @component("you posted the agenda with every item in the channel", 0.3)
    def agenda():
        return max([agenda_share(msg) for msg in agenda_messages()], default=0.0)

    @component("the agenda message is pinned", 0.2)
    def pinned():
        return any(msg["pinned"] and agenda_share(msg) == 1.0 for msg in agenda_messages())


class ChannelKickoff(Family):
    id = "chat.channel_kickoff"
    apps = ("chat",)
    platform = Platform.WEB
    difficulty = Difficulty.MEDIUM
    leaves = ("chat/channels/manage/create_channel", "chat/channels/manage/add_members",
              "chat/messaging/compose/send_message", "chat/messaging/organize/pin_message")  # fmt: skip
    domains = (Domain.MANAGEMENT, Domain.COMPUTER_MATH, Domain.ARTS_MEDIA, Domain.SALES, Domain.EDUCATION)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL)
    helpers = (*WEB_HELPERS, kick_off)
    templates = {
        Wording.IMPERATIVE: "In Team Chat, create a {visibility} channel #{name} with the description \"{purpose}\". "
        "Add {people} to it. Post one message in the channel announcing the kickoff on {when} with this agenda: "
        "{agenda}. Pin that message to the channel.",
        Wording.REQUEST: "Could you set up #{name} in Team Chat for me? It should be a {visibility} channel "
        "described as \"{purpose}\", with {people} as members. Then post the kickoff agenda for {when} ({agenda}) "
        "as a single message there and pin it.",
        Wording.CONTEXTUAL: "As {persona}, I'm starting a new project and need a home for it in Team Chat: a "
        "{visibility} channel called #{name}, description \"{purpose}\", with {people} added. Post our kickoff "
        "agenda for {when} in one message listing {agenda}, and pin it so latecomers find it.",
        Wording.GOAL: "Goal: Team Chat has a {visibility} channel #{name} described as \"{purpose}\" whose members "
        "are you, {people}; it contains your pinned message with the kickoff agenda for {when}: {agenda}.",
        Wording.PROBLEM_FIX: "The project team has nowhere to talk and nobody knows the kickoff agenda. Fix it in "
        "Team Chat: create the {visibility} channel #{name} (description \"{purpose}\"), add {people}, post one "
        "message with the agenda for {when} ({agenda}) and pin it.",
    }

    def draw(self, rng: random.Random) -> dict:
        users, everyone = people(rng, rng.randint(2, 4))
        name = rng.choice(CHANNEL_NAMES)
        members = rng.sample(sorted(everyone), rng.randint(2, 4))
        # An archived channel with a similar name is a trap: the new one must be created, not revived.
        old = f"{name}-old"
        world = {"users": users, "channels": {channel_id(old): channel(old, [ME, *members[:1]], archived=True,
                                                                         created="2023-05-02T09:00:00Z")}}
        return {
            "world": world, "name": name, "purpose": PURPOSES[name], "private": rng.random() < 0.4,
            "members": members, "member_names": [everyone[uid] for uid in members],
            "agenda": rng.sample(AGENDA, rng.randint(3, 5)),
            "when": f"{rng.choice(WEEKDAYS)} at {rng.randint(9, 16)}:{rng.choice(['00', '30'])}",
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        names = P["member_names"]
        agenda = "; ".join(f"{n}. {item}" for n, item in enumerate(P["agenda"], 1))
        return {"name": P["name"], "purpose": P["purpose"], "visibility": "private" if P["private"] else "public",
                "people": ", ".join(names[:-1]) + " and " + names[-1], "agenda": agenda, "when": P["when"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Team Chat (hub app `chat`), current user u_ana; seeded workspace plus users "
            f"{sorted(P['world']['users'])} and an archived channel #{P['name']}-old. No channel named {P['name']!r} "
            f"exists. Expected: channels.c_{P['name'].replace('-', '_')} (found by name) with purpose {P['purpose']!r}, "
            f"private={P['private']}, members exactly u_ana + {P['members']}; a new top-level message by u_ana in it "
            f"containing every agenda item {P['agenda']}, pinned; nothing archived or deleted."
        )
