"""Cloudbox: file a scanner folder's PDFs and trash its other files. Data and wording: tidy_scans.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("cloudbox")
    folder_name = rng.choice(pools["folders"])
    (folder,) = records("cloudbox", "folders", 1, rng, state, name=folder_name)
    state["folders"][folder].pop("parent", None)
    target = rng.choice(pools["targets"])
    names = rng.sample(pools["pdfs"], rng.randint(2, 3)) + rng.sample(pools["others"], rng.randint(1, 2))
    files = {}
    for name in names:
        kind = "pdf" if name.endswith(".pdf") else "image"
        fixed = {"name": name, "type": kind, "folder": folder, "status": "active", "owner": "m0001"}
        files.update(records("cloudbox", "files", 1, rng, state, **fixed))
    pdfs = [f for f in files if files[f]["type"] == "pdf"]
    return {
        "world": {"folders": {folder: state["folders"][folder]}, "files": files},
        "folder": folder,
        "folder_name": folder_name,
        "target": target,
        "target_name": state["folders"][target]["name"],
        "pdfs": pdfs,
        "pdf_names": [files[f]["name"] for f in pdfs],
        "others": [f for f in files if f not in pdfs],
        "other_names": [files[f]["name"] for f in files if f not in pdfs],
    }


def initial_setup(P):
    hub_write("cloudbox", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("cloudbox", "state")["stored_state"]
    pdfs = P["pdfs"][:-1] if mistake == "one_left" else P["pdfs"]
    for fid in pdfs:
        state["files"][fid]["folder"] = P["target"]
    if mistake != "no_trash":
        for fid in P["others"]:
            state["files"][fid]["status"] = "trashed"
    hub_write("cloudbox", "set_current", state)


def reward(P):
    go = hub_read("cloudbox", "go")
    now, before = go["current_state"], go["initial_state"]
    files = now["files"]

    @precondition("the scanner folder holds exactly the task's files, all active")
    def folder_as_described():
        held = sorted(
            fid
            for fid, f in before["files"].items()
            if f.get("folder") == P["folder"] and f["status"] == "active"
        )
        return held == sorted(P["pdfs"] + P["others"])

    @precondition("no other file changed, nothing was deleted, and no folder changed")
    def others_intact():
        return (
            unchanged_except(go, "files", ids=P["pdfs"] + P["others"])
            and unchanged_except(go, "files", ids=P["others"], fields=("status",))
            and unchanged_except(go, "folders")
            and unchanged_except(go, "members")
        )

    @component("each PDF is filed in the target folder and still active", 0.6)
    def filed():
        return sum(
            files[f].get("folder") == P["target"] and files[f]["status"] == "active" for f in P["pdfs"]
        ) / len(P["pdfs"])

    @component("each other file of the folder is in the trash", 0.4)
    def trashed():
        return sum(files[f]["status"] == "trashed" for f in P["others"]) / len(P["others"])


def demonstrate(P, screen):
    """Open each file of the scanner folder from My files (searching its name): a PDF gets the target
    folder in its Folder select, any other file goes to the trash."""
    yield from open_view(screen, "My files")
    for name in P["pdf_names"]:
        yield from open_record(screen, "My files", name)
        yield from choose(screen, "Folder", P["target_name"])
    for name in P["other_names"]:
        yield from open_record(screen, "My files", name)
        yield from press(screen, "Move to trash")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Restore", timeout_s=10, what="the file trashed"
        )
    yield settle()
