"""Chat: answer a colleague's question in its thread and react to it. Data and wording: thread_reply_react.yaml."""

from skills.chat.families._gui import message_text, open_conversation, row_button, send, shown
from skills.chat.world import CHANNEL_NAMES, CHATTER, ME, channel, channel_id, message, people
from skills.kit.guest.hub import added_ids, chat_post, hub_read, hub_write, mentions, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, hover, named


def draw(rng, pools):
    users, everyone = people(rng, rng.randint(1, 3))
    name = rng.choice(CHANNEL_NAMES)
    cid = channel_id(name)
    members = [ME, *rng.sample(sorted(everyone), rng.randint(3, 5))]
    asker, other = rng.sample(members[1:], 2)
    f1, f2 = rng.sample(pools["features"], 2)
    (q1, a1), (q2, _) = rng.sample(pools["questions"], 2)
    fill = {
        "d": rng.choice(pools["days"]),
        "t": f"{rng.randint(9, 16)}:{rng.choice(['00', '15', '30', '45'])}",
    }
    fill["n"] = str(rng.randint(12, 96))
    question, reply = q1.format(f=f1, **fill), a1.format(f=f1, **fill)
    day = rng.randint(10, 20)
    texts = rng.sample(CHATTER, rng.randint(2, 4))
    slots = sorted(rng.sample(range(8 * 60, 17 * 60), len(texts) + 2))
    target_at = rng.randrange(len(slots) - 1)
    lines = [(rng.choice(members[1:]), t) for t in texts]
    lines.insert(target_at, (asker, question))
    lines.insert(target_at + 1 + rng.randrange(len(lines) - target_at), (other, q2.format(f=f2, **fill)))
    messages, target = {}, f"m{101 + target_at:04d}"  # the distractor goes in after the question
    for number, ((user, text), minute) in enumerate(zip(lines, slots, strict=True), start=101):
        others = [m for m in members if m not in (ME, user)]
        reactions = {rng.choice(pools["reactions"]): [rng.choice(others)]} if rng.random() < 0.4 else {}
        ts = f"2024-06-{day:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"
        messages[f"m{number:04d}"] = message(cid, user, text, ts, reactions=reactions)
    created = f"2024-03-{rng.randint(1, 28):02d}T09:00:00Z"
    world = {"users": users, "channels": {cid: channel(name, members, created=created)}, "messages": messages}
    return {
        "world": world,
        "channel": cid,
        "channel_name": name,
        "target": target,
        "asker": asker,
        "asker_name": everyone[asker],
        "question": question,
        "reply": reply,
        "reaction": rng.choice([r for r in pools["reactions"] if r not in messages[target]["reactions"]]),
    }


def initial_setup(P):
    hub_write("chat", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("chat", "state")["stored_state"]
    chat_post(state, P["channel"], P["reply"], thread=None if mistake == "top_level" else P["target"])
    if mistake != "no_reaction":
        reactions = state["messages"][P["target"]].setdefault("reactions", {})
        reactions[P["reaction"]] = [*reactions.get(P["reaction"], []), state["current_user"]]
    hub_write("chat", "set_current", state)


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
        return unchanged_except(go, "messages", fields=("text",))

    @component("a reply from you in the question's thread gives the answer", 0.6)
    def thread_reply():
        new = [now["messages"][mid] for mid in added_ids(go, "messages")]
        mine = [m for m in new if m["user"] == me and m["conversation"] == P["channel"]]
        return any(m["thread"] == P["target"] and mentions(m["text"], P["reply"]) for m in mine)

    @component("the question carries your reaction", 0.4)
    def reacted():
        return me in (now["messages"][P["target"]].get("reactions") or {}).get(P["reaction"], [])


def demonstrate(P, screen):
    """Open the channel, hover the question to reply in its thread, then react to it from its bar."""
    yield from open_conversation(screen, P["channel_name"])
    question = message_text(screen, P["question"])
    yield [hover(question)]
    yield [click(row_button(screen, question, "Reply in thread"))]
    yield from send(screen, "Reply…", P["reply"])
    shown(screen, P["reply"], in_thread=True)
    question = message_text(screen, P["question"])  # the thread pane narrowed the channel view
    yield [hover(question)]
    yield [click(row_button(screen, question, "Add reaction"))]
    emoji = screen.find(named("push-button", f"React with {P['reaction']}"), what="the reaction picker")
    yield [click(emoji)]
    screen.wait_until(
        lambda: not screen.elements(named("push-button", f"React with {P['reaction']}")),
        timeout_s=10,
        what="the reaction picker to close",
    )
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
