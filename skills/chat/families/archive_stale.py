"""Chat: clean up stale channels: find the open channels with no message since a cutoff date, post a
notice in each, archive them, and summarise the clean-up in #general (hard: the agent must inspect
every channel's history; three independently scored parts)."""

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
from skills.chat.families._chatworld import CHANNEL_NAMES, CHATTER, ME, channel, channel_id, message, people
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

MONTHS = ["January", "February", "March", "April", "May"]
ANNOUNCE = "c_general"  # the seed's company-wide channel (SCHEMA.md); it must stay open


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def clean_up(P, notices):
    state = hub_read("chat", "state")["stored_state"]
    me = state["current_user"]

    def post(conversation, text):
        mid = next_id(state["messages"], "m", 4)
        state["messages"][mid] = {"conversation": conversation, "user": me, "text": text, "ts": now_iso(),
                                  "thread": None, "reactions": {}, "edited": False, "pinned": False, "files": []}  # fmt: skip

    for cid in P["stale"]:
        if notices:
            post(cid, f"Archiving this channel: no activity since {P['cutoff_text']}.")
        state["channels"][cid]["archived"] = True
    names = ", ".join("#" + state["channels"][cid]["name"] for cid in P["stale"])
    post(P["announce"], f"Channel clean-up: archived {names} (no activity since {P['cutoff_text']}).")
    hub_write("chat", "set_current", state)


def golden_patch(P):
    clean_up(P, True)


def near_miss(P):
    # Archives the right channels and reports them, but never warns their members first.
    clean_up(P, False)


def reward(P):
    import re

    go = hub_read("chat", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]
    new = [now["messages"][mid] for mid in added_ids(go, "messages")]

    def named(text, name):
        return re.search(r"(?<![\w-])#?" + re.escape(name) + r"(?![\w-])", text.casefold()) is not None

    @precondition("the stale channels are the ones the task's cutoff picks")
    def world_as_described():
        stale = sorted(cid for cid in P["candidates"] if max(m["ts"] for m in before["messages"].values()
                                                              if m["conversation"] == cid) < P["cutoff"])  # fmt: skip
        return stale == sorted(P["stale"]) and not any(before["channels"][cid]["archived"] for cid in P["candidates"])

    @precondition("active channels are still open and nothing was deleted")
    def others_intact():
        still_open = all(not now["channels"][cid]["archived"] for cid, c in before["channels"].items()
                         if not c["archived"] and cid not in P["stale"])  # fmt: skip
        return still_open and not removed_ids(go, "channels") and not removed_ids(go, "messages")

    @component("each stale channel got a notice from you before it was archived", 0.3)
    def notices():
        # The UI refuses posts in archived channels, so a notice that exists was posted before archiving.
        return sum(any(m["conversation"] == cid and m["user"] == me and "archiv" in squash(m["text"]) for m in new)
                   for cid in P["stale"]) / len(P["stale"])  # fmt: skip

    @component("every stale channel is archived", 0.4)
    def archived():
        return sum(bool(now["channels"][cid]["archived"]) for cid in P["stale"]) / len(P["stale"])

    @component("#general has your summary naming exactly the archived channels", 0.3)
    def summary():
        best = 0.0
        for m in new:
            if m["conversation"] != P["announce"] or m["user"] != me or m["thread"]:
                continue
            if any(named(m["text"], before["channels"][cid]["name"]) for cid in P["active"]):
                continue  # a summary that lists a channel which stays open is wrong
            best = max(best, sum(named(m["text"], before["channels"][cid]["name"]) for cid in P["stale"]) / len(P["stale"]))
        return best


class ArchiveStale(Family):
    id = "chat.archive_stale"
    apps = ("chat",)
    platform = Platform.WEB
    difficulty = Difficulty.HARD
    leaves = ("chat/channels/manage/archive_channel", "chat/channels/browse/read_history",
              "chat/messaging/compose/send_message")  # fmt: skip
    domains = (Domain.MANAGEMENT, Domain.COMPUTER_MATH, Domain.OFFICE_ADMIN)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, clean_up)
    templates = {
        Wording.IMPERATIVE: "Clean up Team Chat: find every open channel you are in, other than #general and "
        "#random, whose latest message is older than {cutoff}. In each of them post a notice containing the word "
        "\"archiving\", then archive the channel. Finally post one message in #general that lists the channels "
        "you archived by name.",
        Wording.REQUEST: "Could you archive our dead channels in Team Chat? Any channel you're a member of (not "
        "#general or #random) with no messages since {cutoff} should go. Please post a short note with the word "
        "\"archiving\" in each one before archiving it, and afterwards tell everyone in #general which channels "
        "you archived.",
        Wording.CONTEXTUAL: "As {persona}, I keep our Team Chat tidy. Channels with nothing posted since {cutoff} "
        "are stale: for each stale channel you belong to (except #general and #random), post a notice that says "
        "you are archiving it, then archive it. Leave every channel with newer messages open, and finish with a "
        "#general message naming all the channels you archived.",
        Wording.GOAL: "Goal: every open Team Chat channel you belong to (besides #general and #random) whose last "
        "message predates {cutoff} is archived and contains your notice mentioning \"archiving\"; channels with "
        "newer activity stay open; #general has your message naming each archived channel.",
        Wording.PROBLEM_FIX: "The Team Chat sidebar is cluttered with channels nobody has used since before "
        "{cutoff}. Fix it: post an \"archiving\" notice in each of those channels (only ones you are in, never "
        "#general or #random), archive them, and post a list of the archived channels in #general.",
    }

    def draw(self, rng: random.Random) -> dict:
        users, everyone = people(rng, rng.randint(1, 3))
        month = rng.randint(2, 5)
        cutoff = f"2024-{month:02d}-01"
        names = rng.sample(CHANNEL_NAMES, rng.randint(5, 7))
        n_stale = rng.randint(2, len(names) - 2)
        channels, messages, stale, active = {}, {}, [], []
        number = 101
        for index, name in enumerate(names):
            cid = channel_id(name)
            members = [ME, *rng.sample(sorted(everyone), rng.randint(2, 4))]
            is_stale = index < n_stale
            channels[cid] = channel(name, members, created=f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T09:00:00Z")
            (stale if is_stale else active).append(cid)
            for _ in range(rng.randint(1, 3)):
                # stale: some day before the cutoff; active: at least one day on or after it
                when = f"2024-{rng.randint(1, month - 1):02d}-{rng.randint(1, 28):02d}" if is_stale else \
                    f"2024-{rng.randint(month, 6):02d}-{rng.randint(1, 28):02d}"  # fmt: skip
                messages[f"m{number:04d}"] = message(cid, rng.choice(members[1:]), rng.choice(CHATTER),
                                                     f"{when}T{rng.randint(8, 17):02d}:{rng.randint(0, 59):02d}:00Z")
                number += 1
        order = rng.sample(names, len(names))  # channel order in the world says nothing about staleness
        return {
            "world": {"users": users, "channels": {channel_id(n): channels[channel_id(n)] for n in order},
                      "messages": messages},
            "cutoff": cutoff, "cutoff_text": f"{MONTHS[month - 1]} 1, 2024", "candidates": stale + active,
            "stale": stale, "active": active, "announce": ANNOUNCE,
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"cutoff": P["cutoff_text"]}

    def context(self, P: dict) -> str:
        return (
            f"Team Chat (hub app `chat`), current user u_ana. Seeded workspace (its channels all have June 2024 "
            f"messages; #offsite-2023 is already archived) plus generated open channels {P['candidates']} that "
            f"u_ana belongs to, with messages {sorted(P['world']['messages'])}. Cutoff {P['cutoff']}. Stale (last "
            f"message before the cutoff): {P['stale']}; active: {P['active']}. Expected: each stale channel has a new "
            f"top-level message by u_ana mentioning 'archiving' and archived=true; every other channel stays open; "
            f"a new message by u_ana in {P['announce']} naming each stale channel and no active one."
        )
