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
    """No VS Code here: open the project's .vscode/settings.json in nano from the terminal. New keys
    go right after the object's opening `{` (each with a comma, the old settings follow); a
    files.exclude the project already has gets the new globs right after its own `{`."""
    import json
    import shlex

    def table(key, patterns):
        lines = [f"        {json.dumps(p)}: true," for p in patterns]
        return f"    {json.dumps(key)}: {{\n" + "\n".join(lines) + "\n    },\n"

    hidden = ["**/" + name for name in P["hide"]]
    has_files_exclude = any(key == "files.exclude" for key, _, _ in P["folder_entries"])
    new_keys = table("search.exclude", P["nosearch"])
    new_keys = new_keys if has_files_exclude else table("files.exclude", hidden) + new_keys
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['project'])} && cat .vscode/settings.json\n"}]
    yield [{"action": "type", "text": "nano .vscode/settings.json\n"}, {"action": "wait", "time": 1.5}]
    yield [{"action": "key", "keys": ["ctrl", "w"]}, {"action": "type", "text": "{\n"}]  # the object's start
    yield [{"action": "key", "keys": ["end"]}, {"action": "type", "text": "\n" + new_keys.rstrip("\n")}]
    if has_files_exclude:
        globs = "\n".join(f"        {json.dumps(p)}: true," for p in hidden)
        yield [{"action": "key", "keys": ["ctrl", "w"]}, {"action": "type", "text": '"files.exclude": {\n'}]
        yield [{"action": "key", "keys": ["end"]}, {"action": "type", "text": "\n" + globs}]
    yield [{"action": "key", "keys": ["ctrl", "o"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "key", "keys": ["enter"]}, {"action": "wait", "time": 0.5}]  # keep the file name
    yield [{"action": "key", "keys": ["ctrl", "x"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "type", "text": "cat .vscode/settings.json\n"}, {"action": "wait", "time": 0.5}]
