"""Chat: answer a colleague's question in its thread and acknowledge it with a reaction (easy)."""

from __future__ import annotations

import random

from skills._web.hubkit import (
    WEB_HELPERS,
    added_ids,
    hub_read,
    hub_write,
    mentions,
    next_id,
    now_iso,
    removed_ids,
    squash,
)
from skills.chat.families._chatworld import CHANNEL_NAMES, CHATTER, ME, channel, channel_id, message, people
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

FEATURES = ["dark mode", "CSV export", "SSO login", "bulk invite", "usage dashboard", "audit log", "webhooks",
            "offline sync", "two-factor setup", "the billing page"]  # fmt: skip
QUESTIONS = [  # question, answer; {f} feature, {d} weekday, {t} time, {n} number
    ("Who can review the {f} PR before {d}?", "I will review the {f} PR by {d} at {t}."),
    ("Is the {f} demo still on for {d}?", "Yes, the {f} demo is on {d} at {t}."),
    ("Do we have numbers on {f} adoption yet?", "Adoption of {f} is at {n}% this week."),
    ("What's the status of the {f} rollout?", "The {f} rollout has reached {n}% of accounts."),
    ("Has anyone tested {f} on the {d} build?", "Tested {f} on the {d} build, {n} cases passed."),
]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
REACTIONS = ["check", "heart", "smile", "star", "zap", "coffee", "point_up", "v"]


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def post_reply(P, in_thread):
    state = hub_read("chat", "state")["stored_state"]
    me = state["current_user"]
    mid = next_id(state["messages"], "m", 4)
    state["messages"][mid] = {"conversation": P["channel"], "user": me, "text": P["reply"], "ts": now_iso(),
                              "thread": P["target"] if in_thread else None, "reactions": {}, "edited": False,
                              "pinned": False, "files": []}  # fmt: skip
    reactions = state["messages"][P["target"]].setdefault("reactions", {})
    reactions[P["reaction"]] = [*reactions.get(P["reaction"], []), me]
    hub_write("chat", "set_current", state)


def golden_patch(P):
    post_reply(P, True)


def near_miss(P):
    # The answer goes to the channel as a new top-level message instead of the question's thread.
    post_reply(P, False)


def reward(P):
    go = hub_read("chat", "go")
    now, before = go["current_state"], go["initial_state"]
    me = now["current_user"]

    @precondition("the question is in the channel, as the task says")
    def question_there():
        asked = before["messages"][P["target"]]
        return asked["conversation"] == P["channel"] and squash(asked["text"]) == squash(P["question"])

    @precondition("no earlier message was deleted or rewritten")
    def history_intact():
        return not removed_ids(go, "messages") and all(
            now["messages"][mid]["text"] == old["text"] for mid, old in before["messages"].items())

    @component("a reply from you in the question's thread gives the answer", 0.6)
    def thread_reply():
        return any(
            now["messages"][mid]["thread"] == P["target"] and now["messages"][mid]["user"] == me
            and now["messages"][mid]["conversation"] == P["channel"] and mentions(now["messages"][mid]["text"], P["reply"])
            for mid in added_ids(go, "messages")
        )  # fmt: skip

    @component("the question carries your reaction", 0.4)
    def reacted():
        return me in (now["messages"][P["target"]].get("reactions") or {}).get(P["reaction"], [])


class ThreadReplyReact(Family):
    id = "chat.thread_reply_react"
    apps = ("chat",)
    platform = Platform.WEB
    difficulty = Difficulty.EASY
    leaves = ("chat/messaging/threads/reply_in_thread", "chat/messaging/reactions/add_reaction")
    domains = (Domain.COMPUTER_MATH, Domain.MANAGEMENT, Domain.SALES, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, post_reply)
    templates = {
        Wording.IMPERATIVE: "In Team Chat, {asker} asked in #{channel}: \"{question}\" Reply in that message's "
        "thread with \"{reply}\" and add a :{reaction}: reaction to the question.",
        Wording.REQUEST: "Could you answer {asker}'s question in #{channel} (\"{question}\") for me? Reply in its "
        "thread with \"{reply}\" and react to the question with :{reaction}:.",
        Wording.CONTEXTUAL: "As {persona}, I'm covering the team chat today. {asker} asked in #{channel}: "
        "\"{question}\" Answer in the thread of that message with \"{reply}\" and leave a :{reaction}: reaction "
        "on the question so they know it is handled.",
        Wording.GOAL: "Goal: {asker}'s message \"{question}\" in #{channel} has a thread reply from you reading "
        "\"{reply}\" and your :{reaction}: reaction.",
        Wording.PROBLEM_FIX: "{asker}'s question in #{channel} (\"{question}\") has gone unanswered for a day. Fix "
        "that: reply in the message's thread with \"{reply}\" and add a :{reaction}: reaction to it.",
    }

    def draw(self, rng: random.Random) -> dict:
        users, everyone = people(rng, rng.randint(1, 3))
        name = rng.choice(CHANNEL_NAMES)
        cid = channel_id(name)
        members = [ME, *rng.sample(sorted(everyone), rng.randint(3, 5))]
        asker, other = rng.sample(members[1:], 2)
        f1, f2 = rng.sample(FEATURES, 2)
        (q1, a1), (q2, _) = rng.sample(QUESTIONS, 2)
        fill = {"d": rng.choice(DAYS), "t": f"{rng.randint(9, 16)}:{rng.choice(['00', '15', '30', '45'])}",
                "n": str(rng.randint(12, 96))}  # fmt: skip
        question, reply = q1.format(f=f1, **fill), a1.format(f=f1, **fill)
        distractor = q2.format(f=f2, **fill)
        day = rng.randint(10, 20)
        texts = rng.sample(CHATTER, rng.randint(2, 4))
        slots = sorted(rng.sample(range(8 * 60, 17 * 60), len(texts) + 2))
        target_at = rng.randrange(len(slots) - 1)
        lines: list[tuple[str, str]] = [(rng.choice(members[1:]), t) for t in texts]
        lines.insert(target_at, (asker, question))
        lines.insert(target_at + 1 + rng.randrange(len(lines) - target_at), (other, distractor))
        messages, target = {}, None
        for number, ((user, text), minute) in enumerate(zip(lines, slots, strict=True), start=101):
            mid = f"m{number:04d}"
            reactions = {rng.choice(REACTIONS): [rng.choice([m for m in members if m not in (ME, user)])]} \
                if rng.random() < 0.4 else {}  # fmt: skip
            messages[mid] = message(cid, user, text, f"2024-06-{day:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z",
                                    reactions=reactions)  # fmt: skip
            if text == question:
                target = mid
        world = {"users": users,
                 "channels": {cid: channel(name, members, created=f"2024-03-{rng.randint(1, 28):02d}T09:00:00Z")},
                 "messages": messages}  # fmt: skip
        taken = set(messages[target]["reactions"])
        return {
            "world": world, "channel": cid, "channel_name": name, "target": target,
            "asker": asker, "asker_name": everyone[asker], "question": question, "reply": reply,
            "reaction": rng.choice([r for r in REACTIONS if r not in taken]),
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"asker": P["asker_name"], "channel": P["channel_name"], "question": P["question"],
                "reply": P["reply"], "reaction": P["reaction"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Team Chat (hub app `chat`), current user u_ana. Seeded workspace plus channel #{P['channel_name']} "
            f"({P['channel']}) with messages {sorted(P['world']['messages'])}; {P['asker_name']} ({P['asker']}) asked "
            f"{P['question']!r} in message {P['target']}; another member asked a different question nearby. "
            f"Expected: a new message by the current user with thread={P['target']} in {P['channel']} containing "
            f"{P['reply']!r}, and u_ana in messages.{P['target']}.reactions.{P['reaction']}; no message deleted or edited."
        )
