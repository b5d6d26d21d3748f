"""VS Code: hide folders from the Explorer and from search in one project's folder settings. Data and wording:
folder_excludes.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import contains_value, load_jsonc, same_value, seed_jsonc, write_jsonc
from skills.kit.guest.rewardkit import component, precondition
from skills.vscode.world import HEADERS, USER_SETTINGS, base_user_entries


def draw(rng, pools):
    kind = rng.choice(sorted(pools["kinds"]))
    pool = pools["kinds"][kind]
    name = rng.choice(pools["names"])
    hide = rng.sample(pool["generated"], 2)
    nosearch = rng.sample(pool["bulky"], rng.randint(1, 2))
    entries = [list(e) for e in pool["settings"]]
    return {
        "project": f"Projects/{name}-{kind}",
        "files": [f.format(name=name) for f in pool["files"]],
        "filler": rng.choice(pools["fillers"]),
        "hide": hide,
        "nosearch": nosearch,
        "folder_entries": rng.sample(entries, rng.randint(1, len(entries))),
        "user_path": USER_SETTINGS,
        "user_entries": base_user_entries(rng, rng.randint(2, 4)),
        "header": rng.choice(HEADERS),
    }


def initial_setup(P):
    import random

    root = HOME / P["project"]
    for rel in P["files"] + [f"{folder}/{P['filler']}" for folder in P["hide"] + P["nosearch"]]:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        rng = random.Random(rel)
        path.write_text(
            "\n".join(f"# {rel} line {i} {rng.random():.6f}" for i in range(rng.randint(3, 30))) + "\n"
        )
    seed_jsonc(root / ".vscode" / "settings.json", P["folder_entries"], "Project settings, shared in git")
    seed_jsonc(HOME / P["user_path"], P["user_entries"], P["header"])


def solve(P, *, mistake=None):
    path = HOME / P["project"] / ".vscode" / "settings.json"
    settings = load_jsonc(path) or {}
    confused = mistake == "hides_unsearched"
    hidden = P["hide"] + P["nosearch"] if confused else P["hide"]
    settings.setdefault("files.exclude", {}).update(dict.fromkeys(["**/" + f for f in hidden], True))
    if not confused:
        settings.setdefault("search.exclude", {}).update(dict.fromkeys(P["nosearch"], True))
    write_jsonc(path, settings, "Project settings, shared in git")


def reward(P):
    import functools

    @functools.cache
    def load(rel):
        return load_jsonc(HOME / rel)

    def folder():
        return load(P["project"] + "/.vscode/settings.json")

    def excluded(table, folder_name):
        # VS Code matches exclude globs against paths relative to the workspace folder
        table = table if isinstance(table, dict) else {}
        forms = (folder_name, folder_name + "/", "**/" + folder_name, "**/" + folder_name + "/")
        return any(same_value(table.get(form), True) for form in forms)

    @precondition("the project's .vscode/settings.json is still a JSON object keeping its settings")
    def folder_kept():
        return isinstance(folder(), dict) and all(
            key in folder() and contains_value(folder()[key], value) for key, value, _ in P["folder_entries"]
        )

    @precondition("user settings keep their values and do not take this project's excludes")
    def user_kept():
        data = load(P["user_path"])
        same = all(key in data and same_value(data[key], value) for key, value, _ in P["user_entries"])
        leaked = any(
            excluded(data.get(key), name)
            for key in ("files.exclude", "search.exclude")
            for name in P["hide"] + P["nosearch"]
        )
        return isinstance(data, dict) and same and not leaked

    @component("files.exclude hides " + ", ".join(P["hide"]), 0.5)
    def hidden():
        return sum(excluded(folder().get("files.exclude"), name) for name in P["hide"]) / len(P["hide"])

    @component("search.exclude skips " + ", ".join(P["nosearch"]) + " (still shown in the Explorer)", 0.5)
    def unsearched():
        searched, shown = folder().get("search.exclude"), folder().get("files.exclude")
        return sum(excluded(searched, n) and not excluded(shown, n) for n in P["nosearch"]) / len(
            P["nosearch"]
        )


def demonstrate(P, screen):
    """File: Open File... the project's .vscode/settings.json; add the hidden folders to its
    files.exclude (right after its `{` when it has one, else as a new key) and a search.exclude
    right after the settings object's `{`; save with ctrl+s."""
    import json

    from skills.vscode.families import _gui

    hidden = dict.fromkeys(["**/" + name for name in P["hide"]], True)
    unsearched = dict.fromkeys(P["nosearch"], True)
    has_files_exclude = any(key == "files.exclude" for key, _, _ in P["folder_entries"])
    _gui.ready(screen)
    yield from _gui.open_file(screen, f"/home/user/{P['project']}/.vscode/settings.json")
    if has_files_exclude:
        yield from _gui.after(screen, '"files.exclude": {')
        yield _gui.type_json(" " + _gui.pairs(hidden))
        new_keys = {"search.exclude": unsearched}
    else:
        new_keys = {"files.exclude": hidden, "search.exclude": unsearched}
    yield from _gui.after(screen, "{")  # the settings object's own brace, on the line after the header
    yield _gui.type_json(" " + "".join(f"{json.dumps(k)}: {json.dumps(v)}, " for k, v in new_keys.items()))
    yield from _gui.save(screen)
