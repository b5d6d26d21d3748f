"""Cloudbox: share a file with two colleagues and star it. Data and wording: share_file.yaml."""

from skills.cloudbox.families._gui import shared_on_tile, tick
from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

MEMBERS = {"m0002": "Kofi Mensah", "m0003": "Elena Petrova", "m0004": "Jonas Weber", "m0005": "Aisha Bello"}


def draw(rng, pools):
    state = seeded("cloudbox")
    owner, a, b, *rest = rng.sample(sorted(MEMBERS), 4)
    old_shared = rest[:1] if rng.random() < 0.6 else []
    name = rng.choice(pools["files"])
    kind = {"pptx": "presentation", "xlsx": "spreadsheet", "pdf": "pdf", "docx": "document"}[
        name.rsplit(".", 1)[1]
    ]
    fixed = {"name": name, "type": kind, "owner": owner, "shared_with": old_shared, "starred": False}
    fixed |= {"status": "active", "folder": rng.choice(sorted(state["folders"]))}
    (file,) = records("cloudbox", "files", 1, rng, state, **fixed)
    return {
        "world": {"files": {file: state["files"][file]}},
        "file": file,
        "name": name,
        "owner": owner,
        "old_shared": old_shared,
        "a": a,
        "a_name": MEMBERS[a],
        "b": b,
        "b_name": MEMBERS[b],
    }


def initial_setup(P):
    hub_write("cloudbox", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("cloudbox", "state")["stored_state"]
    file = state["files"][P["file"]]
    added = [P["a"]] if mistake == "one_missing" else [P["a"], P["b"]]
    file["shared_with"] = [*file.get("shared_with", []), *added]
    if mistake != "not_starred":
        file["starred"] = True
    hub_write("cloudbox", "set_current", state)


def reward(P):
    go = hub_read("cloudbox", "go")
    now, before = go["current_state"], go["initial_state"]
    file = now["files"].get(P["file"], {})

    @precondition("the file is the one the task names, not starred and not yet shared with them")
    def file_as_described():
        old = before["files"].get(P["file"], {})
        shared = old.get("shared_with") or []
        return old.get("name") == P["name"] and not old.get("starred") and not {P["a"], P["b"]} & set(shared)

    @precondition("no other file changed, the file stays where it was, and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "files", ids=[P["file"]])
            and unchanged_except(go, "files", fields=("name", "folder", "owner", "status"))
            and unchanged_except(go, "folders")
            and unchanged_except(go, "members")
        )

    @component("the file is shared with both colleagues and still with those who had it", 0.6)
    def shared():
        people = set(file.get("shared_with") or [])
        kept = set(P["old_shared"]) <= people
        return kept * ((P["a"] in people) + (P["b"] in people)) / 2

    @component("the file is starred", 0.4)
    def starred():
        return file.get("starred") is True


def demonstrate(P, screen):
    """Open the file from My files (searching its name), tick both colleagues under Shared with
    (each shows on the file's tile once saved), then press Add star."""
    yield from open_view(screen, "My files")
    yield from open_record(screen, "My files", P["name"])
    for member in (P["a_name"], P["b_name"]):
        yield from tick(screen, member)
        shared_on_tile(screen, member)
    yield from press(screen, "Add star")
    screen.find(lambda e: e.role == "push-button" and e.name == "Remove star", timeout_s=10, what="the star")
    yield settle()
