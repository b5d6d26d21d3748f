"""Chat: archive the stale channels after a notice in each, and list them in #general. Data and wording: archive_stale.yaml."""

from skills.chat.families._gui import message_text, open_conversation, send
from skills.chat.world import CHANNEL_NAMES, CHATTER, ME, channel, channel_id, message, people
from skills.kit.guest.hub import added_ids, chat_post, hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named


def draw(rng, pools):
    users, everyone = people(rng, rng.randint(1, 3))
    month = rng.randint(2, 5)
    names = rng.sample(CHANNEL_NAMES, rng.randint(5, 7))
    n_stale = rng.randint(2, len(names) - 2)
    channels, messages, stale, active = {}, {}, [], []
    for index, name in enumerate(names):
        cid = channel_id(name)
        members = [ME, *rng.sample(sorted(everyone), rng.randint(2, 4))]
        created = f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T09:00:00Z"
        channels[cid] = channel(name, members, created=created)
        (stale if index < n_stale else active).append(cid)
        for _ in range(rng.randint(1, 3)):
            # stale: some day before the cutoff; active: at least one day on or after it
            first, last = (1, month - 1) if index < n_stale else (month, 6)
            when = f"2024-{rng.randint(first, last):02d}-{rng.randint(1, 28):02d}"
            user, text = rng.choice(members[1:]), rng.choice(CHATTER)
            ts = f"{when}T{rng.randint(8, 17):02d}:{rng.randint(0, 59):02d}:00Z"
            messages[f"m{101 + len(messages):04d}"] = message(cid, user, text, ts)
    order = [channel_id(n) for n in rng.sample(names, len(names))]  # the order says nothing about staleness
    world = {"users": users, "channels": {cid: channels[cid] for cid in order}, "messages": messages}
    return {
        "world": world,
        "cutoff": f"2024-{month:02d}-01",
        "cutoff_text": f"{pools['months'][month - 1]} 1, 2024",
        "candidates": stale + active,
        "stale": stale,
        "active": active,
        "announce": pools["announce"],
    }


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("chat", "state")["stored_state"]
    for cid in P["stale"]:
        if mistake != "no_notices":
            chat_post(state, cid, f"Archiving this channel: no activity since {P['cutoff_text']}.")
        state["channels"][cid]["archived"] = True
    listed = P["stale"] + P["active"][:1] if mistake == "active_in_summary" else P["stale"]
    names = ", ".join("#" + state["channels"][cid]["name"] for cid in listed)
    chat_post(
        state, P["announce"], f"Channel clean-up: archived {names} (no activity since {P['cutoff_text']})."
    )
    hub_write("chat", "set_current", state)


def reward(P):
    import re

    go = hub_read("chat", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]
    new = [now["messages"][mid] for mid in added_ids(go, "messages")]

    def named(text, cid):
        name = re.escape(before["channels"][cid]["name"])
        return re.search(r"(?<![\w-])#?" + name + r"(?![\w-])", text.casefold()) is not None

    def last_post(cid):
        return max(m["ts"] for m in before["messages"].values() if m["conversation"] == cid)

    @precondition("the stale channels are the ones the task's cutoff picks")
    def world_as_described():
        stale = sorted(cid for cid in P["candidates"] if last_post(cid) < P["cutoff"])
        return stale == sorted(P["stale"]) and not any(
            before["channels"][cid]["archived"] for cid in P["candidates"]
        )

    @precondition("no other channel was archived or unarchived and no earlier message changed")
    def others_intact():
        channels_ok = unchanged_except(go, "channels", ids=P["stale"], fields=("archived",))
        return channels_ok and unchanged_except(go, "messages")

    @component("each stale channel got a notice from you before it was archived", 0.3)
    def notices():
        # The UI refuses posts in archived channels, so a notice that exists was posted before archiving.
        def noticed(cid):
            return any(
                m["conversation"] == cid and m["user"] == me and "archiv" in squash(m["text"]) for m in new
            )

        return sum(noticed(cid) for cid in P["stale"]) / len(P["stale"])

    @component("every stale channel is archived", 0.4)
    def archived():
        return sum(bool(now["channels"][cid]["archived"]) for cid in P["stale"]) / len(P["stale"])

    @component("#general has your summary naming exactly the archived channels", 0.3)
    def summary():
        best = 0.0
        for m in new:
            if m["conversation"] != P["announce"] or m["user"] != me or m["thread"]:
                continue
            if any(named(m["text"], cid) for cid in P["active"]):
                continue  # a summary that lists a channel which stays open is wrong
            best = max(best, sum(named(m["text"], cid) for cid in P["stale"]) / len(P["stale"]))
        return best


def demonstrate(P, screen):
    """In each stale channel: post the notice, then archive it from its details dialog; last, post
    the summary in #general. (The stale ones are those whose last message predates the cutoff.)"""
    names = [P["world"]["channels"][cid]["name"] for cid in P["stale"]]
    for name in names:
        yield from open_conversation(screen, name)
        notice = f"Archiving this channel: no activity since {P['cutoff_text']}."
        yield from send(screen, f"Message #{name}", notice)
        message_text(screen, notice)
        details = screen.find(
            lambda e: e.role == "push-button" and e.name.startswith("Channel details"), what="Channel details"
        )
        yield [click(details)]
        yield [click(screen.find(named("push-button", "Archive channel"), what="the Archive channel button"))]
        screen.find(
            named("static", "You are viewing an archived channel. New messages cannot be posted."),
            timeout_s=10,
            what=f"#{name} to be archived",
        )
    general = P["world"]["channels"].get(P["announce"], {}).get("name", "general")
    yield from open_conversation(screen, general)
    summary = f"Channel clean-up: archived {', '.join('#' + n for n in names)} (no activity since {P['cutoff_text']})."
    yield from send(screen, f"Message #{general}", summary)
    message_text(screen, summary)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
