"""Thunderbird: star one sender's messages and tag the messages about one topic. Data and
wording: triage_flags.yaml.

Thunderbird keeps a message's flags in its mbox as it changes them: X-Mozilla-Status (0x4
starred, 0x1 read) and X-Mozilla-Keys (tag keywords; the built-in tags are $label1..$label5),
rewritten in place (the setup pads X-Mozilla-Keys as Thunderbird does)."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import (
    tb_account_dir,
    tb_folders_intact,
    tb_read_folder,
    tb_write_folder,
    tb_write_profile,
)
from skills.kit.teach import click
from skills.thunderbird.families._gui import message_rows, open_folder
from skills.thunderbird.world import account, account_of, correspondents, mailbox

TAG_NUMBERS = {"$label1": 1, "$label2": 2, "$label3": 3, "$label4": 4, "$label5": 5}


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 4, used)
    vip = people[0]
    topic = rng.choice(sorted(pools["kinds"]))
    keyword = pools["kinds"][topic]
    while True:
        plan = [(vip, t) for t in rng.sample(pools["other_topics"], 3)]
        plan += [(people[i], topic) for i in rng.sample(range(1, 4), 2)]
        plan += [
            (people[i], t)
            for i, t in zip(rng.sample(range(1, 4), 3), rng.sample(pools["other_topics"], 3), strict=True)
        ]
        rng.shuffle(plan)
        messages = mailbox(rng, me, plan)
        tagged = [m["id"] for m in messages if keyword in m["subject"].lower()]
        starred = [m["id"] for m in messages if vip["email"] in m["from"]]
        if len(tagged) == 2 and not set(tagged) & set(starred):
            break
    pre = rng.choice([m for m in messages if m["id"] not in tagged and m["id"] not in starred])
    pre["status"] = 0x5
    tag = rng.choice(sorted(pools["tags"]))
    return dict(
        account=account_of(me),
        vip={k: vip[k] for k in ("name", "email")},
        keyword=keyword,
        tag=tag,
        tag_key=pools["tags"][tag],
        messages=messages,
        starred=starred,
        tagged=tagged,
        pre_starred=pre["id"],
    )


def initial_setup(P):
    tb_write_profile(P["account"])
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", P["messages"])


def solve(P, *, mistake=None):
    wrong = "$label3"
    messages = []
    for item in P["messages"]:
        item = dict(item)
        if item["id"] in P["starred"] and not (mistake == "one_unstarred" and item["id"] == P["starred"][-1]):
            item["status"] = item.get("status", 0) | 0x4
        if item["id"] in P["tagged"]:
            item["keys"] = [wrong if mistake == "wrong_tag" else P["tag_key"]]
        messages.append(item)
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", messages)


def reward(P):
    inbox = tb_account_dir(P["account"]["host"]) / "Inbox"
    starred, tagged = set(P["starred"]), set(P["tagged"])

    def messages():
        return {m["id"]: m for m in tb_read_folder(inbox)}

    @precondition("every message is still in the Inbox")
    def all_there():
        found = messages()
        return all(m["id"] in found for m in P["messages"])

    @precondition("no other message was starred, and the one starred before still is")
    def no_other_stars():
        found = messages()
        pre = found.get(P["pre_starred"])
        others = [m for i, m in found.items() if i not in starred and i != P["pre_starred"]]
        return pre is not None and bool(pre["status"] & 0x4) and not any(m["status"] & 0x4 for m in others)

    @precondition(f"no other message carries the tag {P['tag']!r}")
    def no_other_tags():
        return not any(P["tag_key"] in m["keys"] for i, m in messages().items() if i not in tagged)

    @precondition("the account's and Local Folders' standard folders are all still there")
    def folders_intact():
        return tb_folders_intact(P["account"])

    @component(f"every message from {P['vip']['email']} is starred", 0.5)
    def vip_starred():
        found = messages()
        return sum(1 for i in starred if i in found and found[i]["status"] & 0x4) / len(starred)

    @component(f"every message about {P['keyword']!r} is tagged {P['tag']!r}", 0.5)
    def topic_tagged():
        found = messages()
        return sum(1 for i in tagged if i in found and P["tag_key"] in found[i]["keys"]) / len(tagged)


def demonstrate(P, screen):
    """In the Inbox: click the star of each of the sender's messages; select each topic message and
    press the tag's number key (1 Important, 2 Work, 4 To Do, 5 Later)."""
    yield from open_folder(screen, "Inbox")
    subjects = {m["id"]: m["subject"] for m in P["messages"]}
    for ident in P["starred"]:
        row = message_rows(screen, subjects[ident], count=1)[0]
        star = screen.find(
            lambda e, row=row: e.role == "push-button" and e.name == "Message not starred" and inside(e, row),
            what="the message's star",
        )
        yield [click(star)]
        screen.find(
            lambda e, row=row: e.role == "push-button" and e.name == "Message starred" and inside(e, row),
            what="the message starred",
        )
    for ident in P["tagged"]:
        row = message_rows(screen, subjects[ident], count=1)[0]
        yield [click(row), {"action": "key", "keys": [str(TAG_NUMBERS[P["tag_key"]])]}]
        screen.find(
            lambda e, row=row: e.name == P["tag"] and inside(e, row), what="the tag's dot on the message"
        )


def inside(element, box):
    cx, cy = element.center
    return box.x <= cx < box.x + box.w and box.y <= cy < box.y + box.h
