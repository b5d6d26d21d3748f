"""VS Code: define build and test tasks for a project in .vscode/tasks.json, with a default build."""

from __future__ import annotations

import random

from skills.vscode.families._jsonc import load_jsonc, parse_jsonc
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# kind -> (marker file, build commands, test commands, lint task someone already defined)
KINDS = {
    "python": ("pyproject.toml", ["python3 -m build", "pip wheel . -w dist"], ["pytest -q", "python3 -m unittest"],
               {"label": "lint", "type": "shell", "command": "ruff check ."}),
    "node": ("package.json", ["npm run build", "npx tsc -p ."], ["npm test", "npx jest --ci"],
             {"label": "lint", "type": "npm", "script": "lint"}),
    "c": ("Makefile", ["make", "make all -j4"], ["make test", "make check"],
          {"label": "clean", "type": "shell", "command": "make clean"}),
    "go": ("go.mod", ["go build ./...", "go build -o bin/app ./cmd/app"], ["go test ./...", "go test -race ./..."],
           {"label": "vet", "type": "shell", "command": "go vet ./..."}),
    "rust": ("Cargo.toml", ["cargo build", "cargo build --release"], ["cargo test", "cargo test --all"],
             {"label": "clippy", "type": "shell", "command": "cargo clippy"}),
}  # fmt: skip
BUILD_LABELS = ["Build", "build project", "Compile", "build: all"]
TEST_LABELS = ["Run tests", "test", "Unit tests", "test: all"]
NAMES = ["kestrel", "lumen", "marlin", "nova", "osprey", "pico", "ridge", "sable", "tally", "umber"]


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


def _write_tasks(P, build_group):
    import json

    path = HOME / P["project"] / ".vscode" / "tasks.json"
    data = (load_jsonc(path) if path.exists() else None) or {"version": "2.0.0", "tasks": []}
    data["tasks"].append({"label": P["build"][0], "type": "shell", "command": P["build"][1],
                          "group": build_group, "problemMatcher": []})  # fmt: skip
    data["tasks"].append({"label": P["test"][0], "type": "shell", "command": P["test"][1],
                          "group": "test", "problemMatcher": []})  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")


def golden_patch(P):
    _write_tasks(P, {"kind": "build", "isDefault": True})


def near_miss(P):
    # The build task is in the build group but not marked default, so Ctrl+Shift+B still asks.
    _write_tasks(P, "build")


def reward(P):
    cache = {}

    def tasks():
        if "data" not in cache:
            data = load_jsonc(HOME / P["project"] / ".vscode" / "tasks.json")
            ok = isinstance(data, dict) and data.get("version") == "2.0.0" and isinstance(data.get("tasks"), list)
            cache["data"] = [t for t in data["tasks"] if isinstance(t, dict)] if ok else []
        return cache["data"]

    def command_line(task):
        args = task.get("args") if isinstance(task.get("args"), list) else []
        parts = [task.get("command", "")] + [a for a in args if isinstance(a, str)]
        return " ".join(" ".join(str(p) for p in parts).split())

    def find(label):
        return next((t for t in tasks() if str(t.get("label", "")).strip() == label), None)

    def group_kind(task):
        group = task.get("group")
        return group.get("kind") if isinstance(group, dict) else group

    @precondition("the project's files are still there")
    def project_intact():
        return (HOME / P["project"] / P["marker"]).read_text().startswith("# " + P["marker"])

    @precondition("the task that was already defined is kept")
    def existing_kept():
        return P["existing"] is None or find(P["existing"]["label"]) is not None

    @component(f"a shell task '{P['build'][0]}' runs `{P['build'][1]}` (tasks.json version 2.0.0)", 0.35)
    def build_task():
        task = find(P["build"][0])
        return task is not None and task.get("type") == "shell" and command_line(task) == P["build"][1]

    @component(f"'{P['build'][0]}' is the default build task", 0.25)
    def default_build():
        task = find(P["build"][0])
        group = task.get("group") if task else None
        return isinstance(group, dict) and group.get("kind") == "build" and group.get("isDefault") is True

    @component(f"a shell task '{P['test'][0]}' runs `{P['test'][1]}` in the test group", 0.4)
    def test_task():
        task = find(P["test"][0])
        return (task is not None and task.get("type") == "shell" and command_line(task) == P["test"][1]
                and group_kind(task) == "test")  # fmt: skip


class TasksJson(Family):
    id = "vscode.tasks_json"
    apps = ("vscode",)
    difficulty = Difficulty.MEDIUM
    leaves = ("vscode/tasks_and_debug/tasks_json",)
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.SCIENCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.SCIENTIFIC)
    helpers = (parse_jsonc, load_jsonc, _write_tasks)
    templates = {
        Wording.IMPERATIVE: "In the VS Code project {project}, define two shell tasks in .vscode/tasks.json: "
        "'{build_label}' running `{build_cmd}`, set as the default build task, and '{test_label}' running "
        "`{test_cmd}` in the test group.{keep}",
        Wording.REQUEST: "Could you add tasks to {project} so I can build and test from VS Code? A shell task "
        "'{build_label}' that runs `{build_cmd}` and is the default build task (Ctrl+Shift+B), and a shell task "
        "'{test_label}' in the test group that runs `{test_cmd}`.{keep}",
        Wording.CONTEXTUAL: "As {persona}, I keep typing the same commands for {project}. Configure "
        "{project}/.vscode/tasks.json with a default build task '{build_label}' (shell: `{build_cmd}`) and a "
        "test-group task '{test_label}' (shell: `{test_cmd}`).{keep}",
        Wording.GOAL: "Goal: {project}/.vscode/tasks.json (version 2.0.0) has a shell task '{build_label}' "
        "running `{build_cmd}` that is the default build task, and a shell task '{test_label}' running "
        "`{test_cmd}` in the test group.{keep}",
        Wording.PROBLEM_FIX: "Pressing Ctrl+Shift+B in VS Code for {project} finds no build task. Fix it in "
        ".vscode/tasks.json: a shell task '{build_label}' running `{build_cmd}` as the default build task, and "
        "a shell task '{test_label}' running `{test_cmd}` in the test group.{keep}",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(KINDS))
        marker, builds, tests, existing = KINDS[kind]
        return {
            "project": f"Projects/{rng.choice(NAMES)}-{kind}",
            "marker": marker,
            "build": [rng.choice(BUILD_LABELS), rng.choice(builds)],
            "test": [rng.choice(TEST_LABELS), rng.choice(tests)],
            "existing": dict(existing) if rng.random() < 0.5 else None,
        }

    def words(self, P: dict) -> dict[str, str]:
        keep = f" Keep the existing '{P['existing']['label']}' task." if P["existing"] else ""
        return {"project": "~/" + P["project"], "build_label": P["build"][0], "build_cmd": P["build"][1],
                "test_label": P["test"][0], "test_cmd": P["test"][1], "keep": keep}  # fmt: skip

    def context(self, P: dict) -> str:
        existing = (f".vscode/tasks.json exists (JSONC, version 2.0.0) with the task {P['existing']}"
                    if P["existing"] else "there is no .vscode/tasks.json yet")  # fmt: skip
        return (
            f"~/{P['project']} holds {P['marker']} and README.md; {existing}. Expected: tasks.json version "
            f"2.0.0 with a task labelled {P['build'][0]!r}, type shell, command {P['build'][1]!r} (command + args "
            f"joined), group {{'kind': 'build', 'isDefault': true}}; a task {P['test'][0]!r}, type shell, command "
            f"{P['test'][1]!r}, group 'test' or {{'kind': 'test'}}."
        )
