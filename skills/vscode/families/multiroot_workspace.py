"""VS Code: save a multi-root workspace with chosen folders, a display name, workspace settings and extension
recommendations. Data and wording: multiroot_workspace.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import contains_value, load_jsonc
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    folders = pools["folders"]
    product = rng.choice(pools["products"])
    chosen = rng.sample(sorted(folders), rng.randint(3, 4))
    named = rng.choice(chosen)
    display = rng.choice(folders[named][0])
    decoys = rng.sample(pools["decoys"], rng.randint(1, 2))
    tree = [
        [name, folders[name][1] if name in folders else "notes.txt", rng.randint(2, 40)]
        for name in chosen + decoys
    ]
    extensions = sorted({ext for name in chosen for ext in folders[name][2]})
    settings, count = [], rng.randint(2, 3)
    for key, value in rng.sample(pools["settings"], len(pools["settings"])):
        if len(settings) < count and key not in {k for k, _ in settings}:
            settings.append([key, value])
    return {
        "root": f"Projects/{product}",
        "workspace": f"{product}.code-workspace",
        "folders": [[name, display if name == named else None] for name in chosen],
        "decoys": decoys,
        "tree": tree,
        "settings": settings,
        "recommend": rng.sample(extensions, min(len(extensions), rng.randint(2, 3))),
    }


def initial_setup(P):
    root = HOME / P["root"]
    for name, filename, size in P["tree"]:
        path = root / name / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((f"# {name}/{filename}\n" + "x = 1\n" * size), encoding="utf-8")


def solve(P, *, mistake=None):
    import json

    named = mistake != "unnamed"
    workspace = {"folders": [{"name": d, "path": p} if d and named else {"path": p} for p, d in P["folders"]]}
    settings = {}
    for key, value in P["settings"]:
        settings[key] = {**settings.get(key, {}), **value} if isinstance(value, dict) else value
    workspace.update(settings if mistake == "settings_at_root" else {"settings": settings})
    workspace["extensions"] = {"recommendations": P["recommend"]}
    target = HOME / P["root"] / P["workspace"]
    target.write_text("// saved with File > Save Workspace As\n" + json.dumps(workspace, indent=4) + "\n")


def reward(P):
    import functools
    import posixpath

    root = HOME / P["root"]

    @functools.cache
    def workspace():
        data = load_jsonc(root / P["workspace"])
        return data if isinstance(data, dict) else {}

    def wanted(path):
        return posixpath.normpath(posixpath.join(str(root), path))

    def folder_entries():
        """(absolute path, display name) per folder entry, resolved from the workspace file's folder like VS Code."""
        entries = workspace().get("folders") or []
        return [
            (wanted(e["path"]), e.get("name"))
            for e in entries
            if isinstance(e, dict) and isinstance(e.get("path"), str)
        ]

    @precondition("every project folder still holds its files")
    def folders_intact():
        return all(
            (root / name / filename).read_text().count("\n") == size + 1 for name, filename, size in P["tree"]
        )

    @component("the workspace lists exactly the requested folders", 0.3)
    def folders():
        got = {path for path, _ in folder_entries()}
        want = {wanted(path) for path, _ in P["folders"]}
        return len(got & want) / len(got | want) if got else 0.0

    @component("the display name is set on its folder", 0.15)
    def display_name():
        path, display = next((p, d) for p, d in P["folders"] if d)
        return any(resolved == wanted(path) and name == display for resolved, name in folder_entries())

    @component("workspace settings hold the requested values", 0.3)
    def settings():
        table = workspace().get("settings")
        table = table if isinstance(table, dict) else {}
        return sum(key in table and contains_value(table[key], value) for key, value in P["settings"]) / len(
            P["settings"]
        )

    @component("the requested extensions are recommended", 0.25)
    def recommendations():
        extensions = workspace().get("extensions")
        listed = extensions.get("recommendations") if isinstance(extensions, dict) else None
        ids = {str(x).lower() for x in listed} if isinstance(listed, list) else set()
        return sum(ext.lower() in ids for ext in P["recommend"]) / len(P["recommend"])


def demonstrate(P, screen):
    """A new editor (ctrl+n) holding the workspace document (what File > Save Workspace As writes:
    folders relative to it, one display name, settings, recommendations), saved with ctrl+s as the
    .code-workspace file next to the folders."""
    import json

    from skills.vscode.families import _gui

    folders = [{"path": path, **({"name": name} if name else {})} for path, name in P["folders"]]
    settings = dict(P["settings"])  # draw() never repeats a key
    workspace = {"folders": folders, "settings": settings, "extensions": {"recommendations": P["recommend"]}}
    _gui.ready(screen)
    yield from _gui.new_file(screen, json.dumps(workspace))
    yield from _gui.save_as(screen, f"/home/user/{P['root']}/{P['workspace']}")
