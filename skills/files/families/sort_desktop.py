"""Files: sort a cluttered Desktop into category folders. Data and wording: sort_desktop.yaml. Credit per file
needs both halves of a move: the file in its folder with identical bytes and gone from the Desktop root."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    kinds = rng.sample(sorted(pools["categories"]), rng.randint(3, 4))
    stay_name = rng.choice(pools["stay"])
    categories, used = [], {stay_name.lower()}
    for kind in kinds:
        folders, exts, stems = pools["categories"][kind]
        files = []
        for stem in rng.sample(stems, rng.randint(2, 4)):
            ext = rng.choice(exts)
            name = f"{stem}.{ext.upper() if rng.random() < 0.15 else ext}"
            if name.lower() not in used:
                used.add(name.lower())
                files.append(make_file(rng, name))
        folder = rng.choice(folders)
        existing = make_file(rng, f"{rng.choice(stems)}_old.{exts[0]}") if rng.random() < 0.3 else None
        label = f"{kind} ({', '.join('.' + e for e in exts)})"
        categories.append(dict(kind=kind, label=label, folder=folder, files=files, existing=existing))
    return {"desktop": "Desktop", "categories": categories, "stay": make_file(rng, stay_name, high=2000)}


def initial_setup(P):
    desktop = HOME / P["desktop"]
    write_files(desktop, [f for c in P["categories"] for f in c["files"]] + [P["stay"]])
    for category in P["categories"]:
        if category["existing"]:  # a folder already in use holds a file that must survive
            write_files(desktop / category["folder"], [category["existing"]])


def solve(P, *, mistake=None):
    import shutil

    desktop = HOME / P["desktop"]
    for i, category in enumerate(P["categories"]):
        folder = desktop / category["folder"]
        folder.mkdir(exist_ok=True)
        copy = mistake == "copied_not_moved" and i == len(P["categories"]) - 1
        move = shutil.copy2 if copy else shutil.move
        for spec in category["files"]:
            move(str(desktop / spec["name"]), str(folder / spec["name"]))


def reward(P):
    desktop = HOME / P["desktop"]
    total = sum(len(c["files"]) for c in P["categories"])

    @precondition(f"{P['stay']['name']} is still on the Desktop, unchanged")
    def stays():
        return same_bytes(desktop / P["stay"]["name"], P["stay"]["sha256"])

    @precondition("files already in the category folders are kept")
    def existing_kept():
        folders = [(desktop / c["folder"], c["existing"]) for c in P["categories"] if c["existing"]]
        return all(same_bytes(folder / spec["name"], spec["sha256"]) for folder, spec in folders)

    for c in P["categories"]:

        @component(f"{c['label']} moved into {P['desktop']}/{c['folder']}", round(len(c["files"]) / total, 4))
        def sorted_into(c=c):
            at = desktop / c["folder"]
            moved = [
                same_bytes(at / s["name"], s["sha256"]) and not (desktop / s["name"]).exists()
                for s in c["files"]
            ]
            return sum(moved) / len(c["files"])


def demonstrate(P, screen):
    """A terminal is open at the home: cd to the Desktop, make each category folder (-p: some exist
    already) and `mv -n` its files into it (quoted names; -n never overwrites), then list the tree."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['desktop'])} && ls -la\n"}]
    for category in P["categories"]:
        folder = shlex.quote(category["folder"])
        names = " ".join(shlex.quote(spec["name"]) for spec in category["files"])
        yield [{"action": "type", "text": f"mkdir -p {folder} && mv -nv -- {names} {folder}/\n"}]
    yield [{"action": "type", "text": "ls -laR\n"}, {"action": "wait", "time": 0.5}]
