"""Cloudbox: create a subfolder and move two files into it. Data and wording: new_folder_move.yaml."""

from skills.cloudbox.families._gui import enter_folder
from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, open_record, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("cloudbox")
    parent = rng.choice(pools["parents"])
    names = rng.sample(pools["files"], 3)
    files = {}
    for name in names:
        kind = {"docx": "document", "png": "image", "pdf": "pdf", "xlsx": "spreadsheet", "zip": "archive"}
        fixed = {"name": name, "type": kind[name.rsplit(".", 1)[1]], "folder": parent, "status": "active"}
        files.update(records("cloudbox", "files", 1, rng, state, **fixed))
    ids = list(files)
    return {
        "world": {"files": files},
        "parent": parent,
        "parent_name": state["folders"][parent]["name"],
        "folder_name": rng.choice(pools["folders"]),
        "files": ids[:2],
        "names": names[:2],
        "decoy": ids[2],
    }


def initial_setup(P):
    hub_write("cloudbox", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("cloudbox", "state")["stored_state"]
    fid = next_id(state["folders"], "d", 4)
    state["folders"][fid] = {"name": P["folder_name"]}
    if mistake != "at_root":
        state["folders"][fid]["parent"] = P["parent"]
    for file in P["files"][:1] if mistake == "one_unmoved" else P["files"]:
        state["files"][file]["folder"] = fid
    hub_write("cloudbox", "set_current", state)


def reward(P):
    go = hub_read("cloudbox", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [
        fid
        for fid in added_ids(go, "folders")
        if squash(now["folders"][fid]["name"]) == squash(P["folder_name"])
    ]

    @precondition("the files sit in the parent folder and no folder has that name yet")
    def world_as_described():
        return all(before["files"][f]["folder"] == P["parent"] for f in P["files"]) and not any(
            squash(f["name"]) == squash(P["folder_name"]) for f in before["folders"].values()
        )

    @precondition("no other file or folder changed, nothing was deleted, one folder at most was added")
    def others_intact():
        return (
            unchanged_except(go, "files", ids=P["files"])
            and unchanged_except(go, "files", fields=("name", "status", "owner", "shared_with", "starred"))
            and unchanged_except(go, "folders")
            and unchanged_except(go, "members")
            and len(added_ids(go, "folders")) <= 1
        )

    @component("a folder with that name is inside the parent folder", 0.4)
    def created():
        return any(now["folders"][fid].get("parent") == P["parent"] for fid in new)

    @component("both files are in the new folder", 0.6)
    def moved():
        return max(
            (sum(now["files"][f].get("folder") == fid for f in P["files"]) / 2 for fid in new), default=0
        )


def demonstrate(P, screen):
    """Enter the parent folder from My files, create the folder there with New folder, then open each
    file (searching its name) and pick the new folder in its Folder select."""
    yield from open_view(screen, "My files")
    yield from enter_folder(screen, P["parent_name"])
    yield from press(screen, "New folder")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New folder dialog")
    yield from type_field(screen, "Name", P["folder_name"])
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Create folder").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    screen.find(
        lambda e: e.role == "push-button" and e.name == P["folder_name"], timeout_s=10, what="the folder"
    )
    for name in P["names"]:
        yield from open_record(screen, "My files", name)
        yield from choose(screen, "Folder", P["folder_name"])
    yield settle()
