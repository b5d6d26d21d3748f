"""Thunderbird: create a local folder and move one correspondent's messages into it. Data and
wording: sort_sender.yaml.

The Inbox of the POP3 account holds a few messages from several companies; the task creates a
folder under Local Folders and moves every message from one sender there. Thunderbird moves a
message by appending it to the target folder's mbox and marking it expunged in the source (until
the folder is compacted); the reward reads both folders after Thunderbird exited."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import (
    tb_account_dir,
    tb_folders_intact,
    tb_message_ids,
    tb_read_folder,
    tb_write_folder,
    tb_write_profile,
)
from skills.thunderbird.families._gui import (
    context_menu,
    create_folder,
    message_rows,
    open_folder,
    pick_menu,
    select_rows,
)
from skills.thunderbird.world import account, account_of, correspondents, mailbox


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 4, used)
    target = people[0]
    topics = rng.sample(pools["topics"], 8)
    plan = [(target, t) for t in topics[:3]] + [
        (p, t) for p, t in zip(people[1:] * 2, topics[3:], strict=False)
    ]
    rng.shuffle(plan)
    messages = mailbox(rng, me, plan)
    moved = [m["id"] for m in messages if target["email"] in m["from"]]
    return dict(
        account=account_of(me),
        target={k: target[k] for k in ("name", "email", "org")},
        folder=target["org"],
        messages=messages,
        moved=moved,
    )


def initial_setup(P):
    tb_write_profile(P["account"])
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", P["messages"])


def solve(P, *, mistake=None):
    moved = [m for m in P["messages"] if m["id"] in P["moved"]]
    kept = [m for m in P["messages"] if m["id"] not in P["moved"]]
    if mistake == "copied":
        kept = P["messages"]
    if mistake == "one_left":
        kept = kept + moved[-1:]
    tb_write_folder(tb_account_dir("Local Folders") / P["folder"], moved)
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", kept)


def reward(P):
    inbox = tb_account_dir(P["account"]["host"]) / "Inbox"
    folder = tb_account_dir("Local Folders") / P["folder"]
    moved = set(P["moved"])
    others = [m["id"] for m in P["messages"] if m["id"] not in moved]

    @precondition("the other messages are still in the Inbox")
    def others_stay():
        live = set(tb_message_ids(inbox))
        return all(ident in live for ident in others)

    @precondition("the account's and Local Folders' standard folders are all still there")
    def folders_intact():
        return tb_folders_intact(P["account"])

    @component(f"Local Folders has a mail folder named {P['folder']!r} holding a message of theirs", 0.2)
    def folder_created():
        return any(m["id"] in moved for m in tb_read_folder(folder))

    @component(f"every message from {P['target']['email']} is in {P['folder']!r}", 0.4)
    def all_filed():
        filed = set(tb_message_ids(folder))
        return len(moved & filed) / len(moved)

    @component(f"no message from {P['target']['email']} is left in the Inbox", 0.3)
    def inbox_cleared():
        live = set(tb_message_ids(inbox))
        return len(moved - live) / len(moved)

    @component(f"{P['folder']!r} holds nothing but that correspondent's messages", 0.1)
    def nothing_else():
        return all(m["id"] in moved for m in tb_read_folder(folder))


def demonstrate(P, screen):
    """Local Folders' context menu > New Folder…; then in the Inbox Ctrl+click the correspondent's
    messages and move them with the context menu's Move To > Local Folders > <folder>."""
    yield from create_folder(screen, "Local Folders", P["folder"])
    yield from open_folder(screen, "Inbox")
    rows = message_rows(screen, P["target"]["email"], count=len(P["moved"]))
    yield select_rows(rows)
    yield from context_menu(screen, rows[-1])
    yield from pick_menu(screen, ["Move To", "Local Folders"], P["folder"])
    screen.wait_until(
        lambda: not message_rows(screen, P["target"]["email"], wait=False),
        what="the messages to leave the Inbox",
    )
    yield from open_folder(screen, P["folder"], within="Local Folders")
    screen.wait_until(
        lambda: len(message_rows(screen, P["target"]["email"], wait=False)) == len(P["moved"]),
        what="the messages in the new folder",
    )
