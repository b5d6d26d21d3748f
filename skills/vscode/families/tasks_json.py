"""VS Code: define build and test tasks in .vscode/tasks.json, with a default build. Data and wording: tasks_json.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import load_jsonc
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    kind = rng.choice(sorted(pools["kinds"]))
    marker, builds, tests, existing = pools["kinds"][kind]
    return {
        "project": f"Projects/{rng.choice(pools['names'])}-{kind}",
        "marker": marker,
        "build": [rng.choice(pools["build_labels"]), rng.choice(builds)],
        "test": [rng.choice(pools["test_labels"]), rng.choice(tests)],
        "existing": dict(existing) if rng.random() < 0.5 else None,
    }


def initial_setup(P):
    import json

    root = HOME / P["project"]
    root.mkdir(parents=True, exist_ok=True)
    (root / P["marker"]).write_text(f"# {P['marker']} of {P['project']}\n", encoding="utf-8")
    (root / "README.md").write_text(f"# {P['project']}\n\nBuild with `{P['build'][1]}`.\n", encoding="utf-8")
    if P["existing"]:
        body = json.dumps({"version": "2.0.0", "tasks": [P["existing"]]}, indent=4)
        text = "// See https://go.microsoft.com/fwlink/?LinkId=733558\n// for the documentation about the tasks.json format\n"
        (root / ".vscode").mkdir(exist_ok=True)
        (root / ".vscode" / "tasks.json").write_text(text + body.replace("\n    ]", ",\n    ]") + "\n")


def solve(P, *, mistake=None):
    import json

    path = HOME / P["project"] / ".vscode" / "tasks.json"
    data = (load_jsonc(path) if path.exists() else None) or {"version": "2.0.0", "tasks": []}
    build = "build" if mistake == "not_default" else {"kind": "build", "isDefault": True}
    for (label, command), group in ((P["build"], build), (P["test"], "test")):
        data["tasks"].append(
            {"label": label, "type": "shell", "command": command, "group": group, "problemMatcher": []}
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")


def reward(P):
    import functools

    @functools.cache
    def tasks():
        data = load_jsonc(HOME / P["project"] / ".vscode" / "tasks.json")
        ok = isinstance(data, dict) and data.get("version") == "2.0.0" and isinstance(data.get("tasks"), list)
        return [t for t in data["tasks"] if isinstance(t, dict)] if ok else []

    def command_line(task):
        args = task.get("args") if isinstance(task.get("args"), list) else []
        parts = [task.get("command", "")] + [a for a in args if isinstance(a, str)]
        return " ".join(" ".join(str(p) for p in parts).split())

    def find(label):
        return next((t for t in tasks() if str(t.get("label", "")).strip() == label), None)

    def shell_task(name, command):
        task = find(name)
        return task is not None and task.get("type") == "shell" and command_line(task) == command

    @precondition("the project's files are still there, unchanged")
    def project_intact():
        root = HOME / P["project"]
        readme = f"# {P['project']}\n\nBuild with `{P['build'][1]}`.\n"
        return (root / P["marker"]).read_text().startswith("# " + P["marker"]) and (
            root / "README.md"
        ).read_text() == readme

    @precondition("the task that was already defined is kept")
    def existing_kept():
        return P["existing"] is None or find(P["existing"]["label"]) is not None

    @component(f"a shell task '{P['build'][0]}' runs `{P['build'][1]}` (tasks.json version 2.0.0)", 0.35)
    def build_task():
        return shell_task(*P["build"])

    @component(f"'{P['build'][0]}' is the default build task", 0.25)
    def default_build():
        group = (find(P["build"][0]) or {}).get("group")
        return isinstance(group, dict) and group.get("kind") == "build" and group.get("isDefault") is True

    @component(f"a shell task '{P['test'][0]}' runs `{P['test'][1]}` in the test group", 0.4)
    def test_task():
        group = (find(P["test"][0]) or {}).get("group")
        return shell_task(*P["test"]) and (group.get("kind") if isinstance(group, dict) else group) == "test"


def demonstrate(P, screen):
    """An existing .vscode/tasks.json is opened with File: Open File... and gets the two tasks right
    after `"tasks": [` (each with a comma, the task already there follows); otherwise a new editor
    (ctrl+n) gets the whole version-2.0.0 document and is saved as .vscode/tasks.json (VS Code offers
    to create the folder)."""
    import json

    from skills.vscode.families import _gui

    def task(label, command, group):
        return {"label": label, "type": "shell", "command": command, "group": group, "problemMatcher": []}

    tasks = [task(*P["build"], {"kind": "build", "isDefault": True}), task(*P["test"], "test")]
    path = f"/home/user/{P['project']}/.vscode/tasks.json"
    _gui.ready(screen)
    if P["existing"]:
        yield from _gui.open_file(screen, path)
        yield from _gui.after(screen, '"tasks": [')
        yield _gui.type_json(" " + "".join(json.dumps(t) + ", " for t in tasks))
        yield from _gui.save(screen)
    else:
        yield from _gui.new_file(screen, json.dumps({"version": "2.0.0", "tasks": tasks}))
        yield from _gui.save_as(screen, path)
