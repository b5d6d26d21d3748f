"""VS Code: hide folders from the Explorer (files.exclude) and from search (search.exclude) for one
project, in its .vscode/settings.json rather than in the user settings."""

from __future__ import annotations

import random

from skills.vscode.families._common import HEADERS, USER_SETTINGS, base_user_entries
from skills.vscode.families._jsonc import (
    contains_value,
    load_jsonc,
    parse_jsonc,
    render_jsonc,
    same_value,
    write_jsonc,
)
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# project kind -> (sample files, generated folders worth hiding, bulky data folders worth not searching,
#                  folder settings the project already has)
KINDS = {
    "python": (["pyproject.toml", "README.md", "src/{name}/__init__.py", "src/{name}/core.py", "tests/test_core.py"],
               ["__pycache__", ".venv", "build", ".pytest_cache", ".mypy_cache", "htmlcov"],
               ["data", "logs", "notebooks/output", "fixtures"],
               [["python.defaultInterpreterPath", ".venv/bin/python", "project venv"],
                ["files.exclude", {"**/*.pyc": True}, None]]),
    "node": (["package.json", "README.md", "src/index.js", "src/{name}.js", "test/{name}.test.js"],
             ["node_modules", "dist", "coverage", ".next", ".turbo", "storybook-static"],
             ["logs", "fixtures", "public/assets", "data"],
             [["editor.formatOnSave", True, "prettier runs on save"],
              ["files.exclude", {"**/.DS_Store": True}, None]]),
    "java": (["pom.xml", "README.md", "src/main/java/App.java", "src/test/java/AppTest.java", "mvnw"],
             ["target", ".gradle", "out", "build", ".settings", "bin"],
             ["logs", "data", "src/test/resources/large", "docs/generated"],
             [["java.configuration.updateBuildConfiguration", "automatic", None],
              ["editor.tabSize", 4, "Google style uses 2, we use 4"]]),
}  # fmt: skip
NAMES = ["ledger", "tempo", "harbor", "quill", "orbit", "sprout", "atlas", "beacon", "cobalt", "drift", "ember"]


def initial_setup(P):
    import random

    root = HOME / P["project"]
    for rel in P["files"] + [f"{folder}/{P['filler']}" for folder in P["hide"] + P["nosearch"]]:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        rng = random.Random(rel)
        path.write_text("\n".join(f"# {rel} line {i} {rng.random():.6f}" for i in range(rng.randint(3, 30))) + "\n")
    folder_settings = root / ".vscode" / "settings.json"
    folder_settings.parent.mkdir(parents=True, exist_ok=True)
    folder_settings.write_text(render_jsonc(P["folder_entries"], "Project settings, shared in git"), encoding="utf-8")
    user = HOME / P["user_path"]
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(render_jsonc(P["user_entries"], P["header"]), encoding="utf-8")


def _apply(P, files_patterns, search_patterns):
    path = HOME / P["project"] / ".vscode" / "settings.json"
    settings = load_jsonc(path) or {}
    for key, patterns in (("files.exclude", files_patterns), ("search.exclude", search_patterns)):
        if patterns:
            table = settings.setdefault(key, {})
            for pattern in patterns:
                table[pattern] = True
    write_jsonc(path, settings, "Project settings, shared in git")


def golden_patch(P):
    _apply(P, ["**/" + f for f in P["hide"]], list(P["nosearch"]))


def near_miss(P):
    # Confuses the two settings: the folders meant to stay visible but unsearched get hidden instead.
    _apply(P, ["**/" + f for f in P["hide"] + P["nosearch"]], [])


def reward(P):
    cache = {}

    def load(name, rel):
        if name not in cache:
            cache[name] = load_jsonc(HOME / rel)
        return cache[name]

    def folder():
        return load("folder", P["project"] + "/.vscode/settings.json")

    def user():
        return load("user", P["user_path"])

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
        data = user()
        same = all(key in data and same_value(data[key], value) for key, value, _ in P["user_entries"])
        leaked = any(excluded(data.get(key), name) for key in ("files.exclude", "search.exclude")
                     for name in P["hide"] + P["nosearch"])  # fmt: skip
        return isinstance(data, dict) and same and not leaked

    @component("files.exclude hides " + ", ".join(P["hide"]), 0.5)
    def hidden():
        return sum(excluded(folder().get("files.exclude"), name) for name in P["hide"]) / len(P["hide"])

    @component("search.exclude skips " + ", ".join(P["nosearch"]) + " (still shown in the Explorer)", 0.5)
    def unsearched():
        searched, shown = folder().get("search.exclude"), folder().get("files.exclude")
        return sum(excluded(searched, name) and not excluded(shown, name)
                   for name in P["nosearch"]) / len(P["nosearch"])  # fmt: skip


class FolderExcludes(Family):
    id = "vscode.folder_excludes"
    apps = ("vscode",)
    difficulty = Difficulty.MEDIUM
    leaves = ("vscode/settings/files/files_exclude", "vscode/settings/search/search_exclude",
              "vscode/workspace/folder_settings")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.SCIENCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC, Scenario.EDUCATIONAL)
    helpers = (parse_jsonc, load_jsonc, same_value, contains_value, render_jsonc, write_jsonc, _apply)
    templates = {
        Wording.IMPERATIVE: "For the VS Code project {project} only (its folder settings, {folder_file}), hide "
        "{hide} from the Explorer and exclude {nosearch} from search results while keeping them visible in "
        "the Explorer. Don't change the user settings; keep the project's existing settings.",
        Wording.REQUEST: "Could you tidy up VS Code for {project}? In that project's settings "
        "({folder_file}) I don't want to see {hide} in the Explorer at all, and {nosearch} should stay visible "
        "but never show up in search. Please leave my user settings alone.",
        Wording.CONTEXTUAL: "As {persona}, I search {project} all day in VS Code and the results drown in "
        "generated files. Using the project's own settings file {folder_file} (not the user settings), hide "
        "{hide} from the file Explorer and keep {nosearch} out of search while still listing them. Existing "
        "project settings stay.",
        Wording.GOAL: "Goal: in {folder_file}, files.exclude hides {hide} and search.exclude skips {nosearch} "
        "(which stay visible in the Explorer); the project's other settings and the user settings are "
        "unchanged.",
        Wording.PROBLEM_FIX: "VS Code's Explorer and search for {project} are cluttered. Fix it in the project "
        "settings {folder_file}: {hide} must not appear in the Explorer, and {nosearch} must not appear in "
        "search results (but remain in the Explorer). User settings must not change.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(KINDS))
        files, generated, bulky, folder_entries = KINDS[kind]
        name = rng.choice(NAMES)
        hide = rng.sample(generated, 2)
        nosearch = rng.sample(bulky, rng.randint(1, 2))
        entries = [list(e) for e in folder_entries]
        return {
            "project": f"Projects/{name}-{kind}",
            "files": [f.format(name=name) for f in files],
            "filler": rng.choice(["cache.bin", "out.log", "part-0001.dat", "index.json", "blob.tmp"]),
            "hide": hide,
            "nosearch": nosearch,
            "folder_entries": rng.sample(entries, rng.randint(1, len(entries))),
            "user_path": USER_SETTINGS,
            "user_entries": base_user_entries(rng, rng.randint(2, 4)),
            "header": rng.choice(HEADERS),
        }

    def words(self, P: dict) -> dict[str, str]:
        def listing(names):
            quoted = [f"'{n}'" for n in names]
            return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]

        return {"project": "~/" + P["project"], "folder_file": f"~/{P['project']}/.vscode/settings.json",
                "hide": "the folders " + listing(P["hide"]),
                "nosearch": ("the folder " if len(P["nosearch"]) == 1 else "the folders ") + listing(P["nosearch"])}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['project']} holds {P['files']} and the folders {P['hide'] + P['nosearch']}. Its "
            f".vscode/settings.json (JSONC) holds {dict((k, v) for k, v, _ in P['folder_entries'])}; user "
            f"settings ~/{P['user_path']} hold {dict((k, v) for k, v, _ in P['user_entries'])}. Expected in the "
            f"folder settings: files.exclude maps each of {P['hide']} (bare, trailing '/', or '**/' prefixed) to "
            f"true; search.exclude likewise for {P['nosearch']}; existing entries kept; user settings unchanged."
        )
