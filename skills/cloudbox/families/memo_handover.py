"""Writer -> Cloudbox: carry out a handover memo (move the files it lists, share them). Data and
wording: memo_handover.yaml."""

from skills.cloudbox.families._gui import drive_on_top, shared_on_tile, tick
from skills.kit.guest import HOME
from skills.kit.guest.hub import hub_read, hub_write, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, settle
from skills.kit.webapp import records, seeded

MEMBERS = {"m0002": "Kofi Mensah", "m0003": "Elena Petrova", "m0004": "Jonas Weber", "m0005": "Aisha Bello"}
KINDS = {"xlsx": "spreadsheet", "docx": "document", "pdf": "pdf"}


def draw(rng, pools):
    state = seeded("cloudbox")
    member = rng.choice(sorted(MEMBERS))
    target = rng.choice(["d0004", "d0005", "d0006", "d0007"])
    names = rng.sample(pools["files"], rng.randint(2, 3) + 1)
    files = {}
    for name in names:
        fixed = {"name": name, "type": KINDS[name.rsplit(".", 1)[1]], "status": "active", "owner": "m0001"}
        fixed |= {"folder": rng.choice(["d0001", "d0002", "d0003"]), "shared_with": []}
        files.update(records("cloudbox", "files", 1, rng, state, **fixed))
    ids = list(files)
    project = rng.choice(pools["projects"])
    return {
        "world": {"files": files},
        "docx": f"Documents/handover_{project.split()[0].lower()}.docx",
        "docx_name": f"handover_{project.split()[0].lower()}.docx",
        "project": project,
        "files": ids[:-1],
        "names": names[:-1],
        "decoy": ids[-1],
        "target": target,
        "target_name": state["folders"][target]["name"],
        "member": member,
        "member_name": MEMBERS[member],
    }


def memo_lines(P):
    """The memo's paragraphs, in order (its heading first)."""
    intro = (
        f"While I am away, {P['member_name']} takes over the {P['project']} project. "
        f"In Cloudbox, please move the files below into the folder \u201c{P['target_name']}\u201d "
        f"and share each of them with {P['member_name']}:"
    )
    return [f"Handover: {P['project']}", intro, *P["names"], "Everything else stays where it is. Thanks!"]


def initial_setup(P):
    import datetime
    import io
    import zipfile

    import docx

    hub_write("cloudbox", "set", P["world"])
    lines = memo_lines(P)
    doc = docx.Document()
    doc.add_heading(lines[0], level=1)
    doc.add_paragraph(lines[1])
    for name in lines[2:-1]:
        doc.add_paragraph(name, style="List Bullet")
    doc.add_paragraph(lines[-1])
    stamp = datetime.datetime(2024, 6, 13, 17, 0, 0)
    props = doc.core_properties
    props.created, props.modified, props.revision = stamp, stamp, 1
    props.author = props.last_modified_by = "Iris Calder"
    buffer = io.BytesIO()
    doc.save(buffer)
    # The same memo byte for byte on every run: zip entries carry the fixed stamp, not the clock.
    path = HOME / P["docx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=(2024, 6, 13, 17, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(entry, src.read(info.filename))


def solve(P, *, mistake=None):
    state = hub_read("cloudbox", "state")["stored_state"]
    for n, fid in enumerate(P["files"]):
        file = state["files"][fid]
        if not (mistake == "one_unmoved" and n == 0):
            file["folder"] = P["target"]
        if mistake != "not_shared":
            file["shared_with"] = [*file.get("shared_with", []), P["member"]]
    hub_write("cloudbox", "set_current", state)


def reward(P):
    go = hub_read("cloudbox", "go")
    now, before = go["current_state"], go["initial_state"]
    files = now["files"]

    @precondition("the memo's files exist, none yet in the folder or shared with the colleague")
    def world_as_described():
        old = [before["files"].get(f, {}) for f in P["files"]]
        return all(
            f.get("folder") != P["target"] and P["member"] not in (f.get("shared_with") or []) for f in old
        )

    @precondition("the memo is left as it was written (the task only reads it)")
    def memo_intact():
        import docx

        try:
            paragraphs = [p.text for p in docx.Document(HOME / P["docx"]).paragraphs if p.text.strip()]
        except Exception:
            return False
        return paragraphs == memo_lines(P)

    @precondition("no other file changed and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "files", ids=P["files"])
            and unchanged_except(go, "files", fields=("name", "status", "owner", "starred"))
            and unchanged_except(go, "folders")
            and unchanged_except(go, "members")
        )

    @component("each listed file is in the memo's folder", 0.6)
    def moved():
        return sum(files[f].get("folder") == P["target"] for f in P["files"]) / len(P["files"])

    @component("each listed file is shared with the colleague taking over", 0.4)
    def shared():
        return sum(P["member"] in (files[f].get("shared_with") or []) for f in P["files"]) / len(P["files"])


def demonstrate(P, screen):
    """The memo is on top in Writer (it only has to be read); alt+tab to the drive, then open each
    listed file (searching its name), pick the memo's folder and tick the colleague under Shared with."""
    screen.wait_until(
        lambda: screen.has_window(f"{P['docx_name']} - LibreOffice Writer"), what="the memo in Writer"
    )
    yield [{"action": "key", "keys": ["alt", "tab"]}]  # no taskbar: alt+tab brings the browser up
    screen.wait_until(lambda: drive_on_top(screen), timeout_s=15, what="Cloudbox to come to the front")
    yield from open_view(screen, "My files")
    for name in P["names"]:
        yield from open_record(screen, "My files", name)
        yield from choose(screen, "Folder", P["target_name"])
        yield from tick(screen, P["member_name"])
        shared_on_tile(screen, P["member_name"])
    yield settle()
