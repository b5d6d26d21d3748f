"""VS Code: save a multi-root workspace (.code-workspace) with chosen folders, a display name,
workspace-wide settings and extension recommendations."""

from __future__ import annotations

import json
import random

from skills.vscode.families._jsonc import contains_value, load_jsonc, parse_jsonc, same_value
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

PRODUCTS = ["acme", "helios", "nimbus", "orca", "pylon", "quasar", "rivet", "solace", "tundra", "vertex"]
# folder -> (display names someone would give it, a file it holds, extensions that suit it)
FOLDERS = {
    "api": (["Backend API", "Server"], "app.py", ["ms-python.python", "charliermarsh.ruff"]),
    "web": (["Web Client", "Frontend"], "package.json", ["dbaeumer.vscode-eslint", "esbenp.prettier-vscode"]),
    "docs": (["Documentation", "Handbook"], "index.md", ["davidanson.vscode-markdownlint", "yzhang.markdown-all-in-one"]),
    "infra": (["Infrastructure", "Ops"], "main.tf", ["hashicorp.terraform", "redhat.vscode-yaml"]),
    "mobile": (["Mobile App", "iOS and Android"], "pubspec.yaml", ["dart-code.flutter", "dart-code.dart-code"]),
    "data-pipeline": (["Data Pipeline", "ETL"], "dag.py", ["ms-python.python", "ms-toolsai.jupyter"]),
    "shared-lib": (["Shared Library", "Common"], "lib.ts", ["dbaeumer.vscode-eslint", "ms-vscode.vscode-typescript-next"]),
}  # fmt: skip
DECOYS = ["scratch", "old-prototype", "downloads", "archive-2021", "sandbox"]
SETTINGS = [
    ["files.exclude", {"**/node_modules": True}], ["files.exclude", {"**/__pycache__": True}],
    ["editor.formatOnSave", True], ["editor.tabSize", 2], ["files.trimTrailingWhitespace", True],
    ["search.exclude", {"**/dist": True}], ["editor.rulers", [100]], ["files.eol", "\n"],
    ["files.insertFinalNewline", True], ["git.autofetch", True],
]  # fmt: skip


def initial_setup(P):
    root = HOME / P["root"]
    for name, filename, size in P["tree"]:
        path = root / name / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((f"# {name}/{filename}\n" + "x = 1\n" * size), encoding="utf-8")


def _write_workspace(P, settings_at_root):
    import json

    folders = []
    for path, display in P["folders"]:
        entry = {"path": path}
        if display:
            entry = {"name": display, "path": path}
        folders.append(entry)
    workspace = {"folders": folders}
    settings = {}
    for key, value in P["settings"]:
        if isinstance(value, dict):
            settings.setdefault(key, {}).update(value)
        else:
            settings[key] = value
    if settings_at_root:
        workspace.update(settings)
    else:
        workspace["settings"] = settings
    workspace["extensions"] = {"recommendations": P["recommend"]}
    target = HOME / P["root"] / P["workspace"]
    target.write_text("// saved with File > Save Workspace As\n" + json.dumps(workspace, indent=4) + "\n")


def golden_patch(P):
    _write_workspace(P, settings_at_root=False)


def near_miss(P):
    # Settings pasted at the top level of the workspace file instead of inside its "settings" object.
    _write_workspace(P, settings_at_root=True)


def reward(P):
    import posixpath

    root = HOME / P["root"]
    cache = {}

    def workspace():
        if "data" not in cache:
            data = load_jsonc(root / P["workspace"])
            cache["data"] = data if isinstance(data, dict) else {}
        return cache["data"]

    def folder_entries():
        """(resolved absolute path, display name) per folder entry; relative paths resolve against the
        workspace file's folder, as VS Code does."""
        entries = []
        for entry in workspace().get("folders") or []:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                resolved = posixpath.normpath(posixpath.join(str(root), entry["path"]))
                entries.append((resolved, entry.get("name")))
        return entries

    def wanted(path):
        return posixpath.normpath(posixpath.join(str(root), path))

    @precondition("every project folder still holds its files")
    def folders_intact():
        return all((root / name / filename).read_text().count("\n") == size + 1 for name, filename, size in P["tree"])

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


class MultirootWorkspace(Family):
    id = "vscode.multiroot_workspace"
    apps = ("vscode",)
    difficulty = Difficulty.HARD
    leaves = ("vscode/workspace/multi_root/create_workspace_file", "vscode/workspace/multi_root/folder_display_name",
              "vscode/workspace/multi_root/workspace_settings", "vscode/extensions/recommend_extensions")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL)
    helpers = (parse_jsonc, load_jsonc, same_value, contains_value, _write_workspace)
    templates = {
        Wording.IMPERATIVE: "Create a VS Code multi-root workspace saved as {workspace} with the folders "
        "{folders} from {root} (and no others; {decoys} stays out). Show {named} as \"{display}\" in the "
        "Explorer. Add workspace settings {settings}, and recommend the extensions {recommend} for the "
        "workspace.",
        Wording.REQUEST: "Could you set up a VS Code workspace file {workspace} for me? It should open the "
        "folders {folders} of {root} together, but not {decoys}; the {named} folder should be labelled "
        "\"{display}\". It also needs the workspace settings {settings} and should recommend {recommend}.",
        Wording.CONTEXTUAL: "As {persona}, I work on several parts of {root} at once. Save a multi-root "
        "workspace {workspace} containing only {folders} (leave out {decoys}), with {named} displayed as "
        "\"{display}\", workspace-level settings {settings}, and the extension recommendations {recommend}.",
        Wording.GOAL: "Goal: {workspace} is a VS Code workspace whose folders are exactly {folders} of {root} "
        "(not {decoys}), where {named} is named \"{display}\", whose workspace settings include {settings}, "
        "and which recommends the extensions {recommend}.",
        Wording.PROBLEM_FIX: "Opening the parts of {root} one by one in VS Code wastes time and everyone uses "
        "different settings. Fix that with a workspace file {workspace}: folders {folders} only (not "
        "{decoys}), {named} shown as \"{display}\", workspace settings {settings}, and recommended extensions "
        "{recommend}.",
    }

    def draw(self, rng: random.Random) -> dict:
        product = rng.choice(PRODUCTS)
        chosen = rng.sample(sorted(FOLDERS), rng.randint(3, 4))
        named = rng.choice(chosen)
        display = rng.choice(FOLDERS[named][0])
        decoys = rng.sample(DECOYS, rng.randint(1, 2))
        tree = [[name, FOLDERS[name][1] if name in FOLDERS else "notes.txt", rng.randint(2, 40)]
                for name in chosen + decoys]  # fmt: skip
        pool = sorted({ext for name in chosen for ext in FOLDERS[name][2]})
        settings, count = [], rng.randint(2, 3)
        for key, value in rng.sample(SETTINGS, len(SETTINGS)):
            if len(settings) < count and key not in {k for k, _ in settings}:
                settings.append([key, value])
        return {
            "root": f"Projects/{product}",
            "workspace": f"{product}.code-workspace",
            "folders": [[name, display if name == named else None] for name in chosen],
            "decoys": decoys,
            "tree": tree,
            "settings": settings,
            "recommend": rng.sample(pool, min(len(pool), rng.randint(2, 3))),
        }

    def words(self, P: dict) -> dict[str, str]:
        def listing(items):
            return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]

        named, display = next((p, d) for p, d in P["folders"] if d)
        return {
            "workspace": f"~/{P['root']}/{P['workspace']}",
            "root": f"~/{P['root']}",
            "folders": listing([f"'{p}'" for p, _ in P["folders"]]),
            "decoys": listing([f"'{d}'" for d in P["decoys"]]),
            "named": f"'{named}'",
            "display": display,
            "settings": listing([f"{k} = {json.dumps(v)}" for k, v in P["settings"]]),
            "recommend": listing(P["recommend"]),
        }

    def context(self, P: dict) -> str:
        return (
            f"~/{P['root']} holds the folders {[t[0] for t in P['tree']]}, each with one file; no workspace file "
            f"exists. Expected: ~/{P['root']}/{P['workspace']} (JSONC) whose 'folders' resolve (relative to the "
            f"file, or absolute) to exactly {[p for p, _ in P['folders']]}, with display names "
            f"{[f for f in P['folders'] if f[1]]}; 'settings' containing {P['settings']} (objects may carry "
            f"more keys); 'extensions.recommendations' containing {P['recommend']} (case-insensitive)."
        )
