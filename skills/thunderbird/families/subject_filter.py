"""Thunderbird: a message filter that moves mail by a subject keyword to a local folder, run on the
Inbox. Data and wording: subject_filter.yaml.

The account already has one filter (which must stay) and Local Folders has the target folder with
an older message in it. The filter list is msgFilterRules.dat in the account's mail folder,
written when the Message Filters window closes; running the filter moves the matching messages
(appended to the folder's mbox, marked expunged in the Inbox's)."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import (
    tb_account_dir,
    tb_filter_terms,
    tb_folder_uri,
    tb_folders_intact,
    tb_message_ids,
    tb_read_filters,
    tb_write_filters,
    tb_write_folder,
    tb_write_profile,
)
from skills.kit.teach import click
from skills.thunderbird.families._gui import MAIN, message_rows, named_item, open_filters, pick_menu
from skills.thunderbird.world import account, account_of, correspondents, mailbox, message


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 4, used)
    topic = rng.choice(sorted(pools["kinds"]))
    keyword, folder = pools["kinds"][topic]
    others = [t for t in pools["other_topics"] if t != topic]
    while True:
        plan = [(people[i], topic) for i in rng.sample(range(4), 3)]
        plan += [(rng.choice(people), t) for t in rng.sample(others, 4)]
        rng.shuffle(plan)
        messages = mailbox(rng, me, plan)
        matching = [m["id"] for m in messages if keyword.lower() in m["subject"].lower()]
        if len(matching) == 3:
            break
    older = message(rng, 90, people[0], me, topic)
    older["date"] = "Mon, 12 Feb 2024 10:00:00 +0000"
    old_folder = "Newsletters"
    old_filter = {
        "name": "Newsletters",
        "enabled": True,
        "type": 17,
        "actions": [["Move to folder", tb_folder_uri(old_folder)]],
        "condition": f"AND (from,contains,news@{people[1]['email'].split('@')[1]})",
    }
    return dict(
        account=account_of(me),
        keyword=keyword,
        folder=folder,
        folder_uri=tb_folder_uri(folder),
        name=f"{folder} by subject",
        messages=messages,
        matching=matching,
        older=older,
        old_folder=old_folder,
        old_filter=old_filter,
    )


def initial_setup(P):
    host = P["account"]["host"]
    tb_write_profile(P["account"])
    tb_write_folder(tb_account_dir(host) / "Inbox", P["messages"])
    tb_write_folder(tb_account_dir("Local Folders") / P["folder"], [P["older"]])
    tb_write_folder(tb_account_dir("Local Folders") / P["old_folder"], [])
    tb_write_filters(host, [P["old_filter"]])


def solve(P, *, mistake=None):
    host = P["account"]["host"]
    action = "Copy to folder" if mistake == "copy_action" else "Move to folder"
    new = {
        "name": P["name"],
        "enabled": True,
        "type": 17,
        "actions": [[action, P["folder_uri"]]],
        "condition": f"AND (subject,contains,{P['keyword']})",
    }
    tb_write_filters(host, [P["old_filter"], new])
    if mistake == "not_run":
        return
    matching = [m for m in P["messages"] if m["id"] in P["matching"]]
    tb_write_folder(tb_account_dir("Local Folders") / P["folder"], [P["older"], *matching])
    if mistake != "copy_action":
        kept = [m for m in P["messages"] if m["id"] not in P["matching"]]
        tb_write_folder(tb_account_dir(host) / "Inbox", kept)


def reward(P):
    host = P["account"]["host"]
    inbox = tb_account_dir(host) / "Inbox"
    folder = tb_account_dir("Local Folders") / P["folder"]
    matching = set(P["matching"])
    others = [m["id"] for m in P["messages"] if m["id"] not in matching]

    def the_filter():
        found = [f for f in tb_read_filters(host) if f["name"].strip() == P["name"]]
        return found[0] if found else None

    @precondition(f"the filter {P['old_filter']['name']!r} is still there as it was")
    def old_filter_kept():
        old = P["old_filter"]
        for item in tb_read_filters(host):
            if item["name"] == old["name"]:
                return (
                    item["enabled"] == old["enabled"]
                    and item["actions"] == old["actions"]
                    and item["condition"] == old["condition"]
                )
        return False

    @precondition("the other messages are still in the Inbox")
    def others_stay():
        live = set(tb_message_ids(inbox))
        return all(ident in live for ident in others)

    @precondition("every folder of the setup is still there, with its older messages")
    def folders_kept():
        old = tb_account_dir("Local Folders") / P["old_folder"]
        return (
            tb_folders_intact(P["account"]) and old.is_file() and P["older"]["id"] in tb_message_ids(folder)
        )

    @component(f"an enabled filter named {P['name']!r} exists", 0.15)
    def filter_exists():
        found = the_filter()
        return found is not None and found["enabled"]

    @component(f"the filter matches messages whose subject contains {P['keyword']!r}", 0.25)
    def filter_condition():
        found = the_filter()
        if found is None:
            return False
        terms = tb_filter_terms(found["condition"])
        return len(terms) == 1 and terms[0][1:] == ("subject", "contains", P["keyword"].lower())

    @component(f"the filter moves them to Local Folders/{P['folder']}", 0.25)
    def filter_action():
        found = the_filter()
        return found is not None and ["Move to folder", P["folder_uri"]] in found["actions"]

    @component(f"the {len(matching)} matching Inbox messages were moved to Local Folders/{P['folder']}", 0.35)
    def messages_moved():
        filed, live = set(tb_message_ids(folder)), set(tb_message_ids(inbox))
        return len({i for i in matching if i in filed and i not in live}) / len(matching)


def demonstrate(P, screen):
    """The account's context menu > Message Filters > New…: name, "Subject contains <keyword>", Move
    Message to > Local Folders > <folder>, OK; then with the filter selected, Run selected filter(s)
    on: Inbox > Run Now, and close the Message Filters window (which writes msgFilterRules.dat)."""
    yield from open_filters(screen, P["account"]["email"])
    yield [click(named_item(screen, "push-button", "New…"))]
    screen.wait_until(lambda: screen.has_window("Filter Rules"), what="the Filter Rules dialog")
    yield [click(named_item(screen, "entry", "Filter name:")), {"action": "type", "text": P["name"]}]
    rule = screen.find(
        lambda e: e.role == "list-item" and e.name.startswith("Subject contains"), what="the rule"
    )
    value = screen.find(
        lambda e: e.role == "entry" and rule.y <= e.center[1] < rule.y + rule.h, what="its value"
    )
    yield [click(value), {"action": "type", "text": P["keyword"]}]
    action = screen.find(
        lambda e: e.role == "list-item" and e.name.startswith("Move Message to"), what="the action"
    )
    combos = []
    screen.wait_until(
        lambda: len(combos.clear() or combos.extend(screen.elements(
            lambda e: e.role == "combo-box" and action.y <= e.center[1] < action.y + action.h)) or combos) == 2,
        what="the action's folder picker",
    )  # fmt: skip
    yield [click(combos[1])]
    yield from pick_menu(screen, ["Local Folders"], P["folder"])
    screen.find(
        lambda e: (
            e.role == "list-item" and e.name.startswith(f"Move Message to {P['folder']} on Local Folders")
        ),
        what="the chosen folder",
    )
    yield [click(named_item(screen, "push-button", "OK"))]
    screen.wait_until(lambda: not screen.has_window("Filter Rules"), what="the Filter Rules dialog to close")
    yield [click(named_item(screen, "label", P["name"], "the new filter in the list"))]
    yield [click(named_item(screen, "combo-box", "Run selected filter(s) on:"))]
    yield [click(named_item(screen, "menu-item", "Inbox"))]
    yield [click(named_item(screen, "push-button", "Run Now"))]
    keyword = P["keyword"].lower()
    yield [{"action": "wait", "time": 2.0}]
    yield [{"action": "key", "keys": ["Escape"]}]
    screen.wait_until(
        lambda: not screen.has_window("Message Filters"), what="the Message Filters window to close"
    )
    screen.wait_until(lambda: screen.has_window(MAIN), what="the main window")
    screen.wait_until(
        lambda: not [r for r in message_rows(screen, "", wait=False) if keyword in r.name.lower()],
        what="the matching messages to leave the Inbox",
    )
