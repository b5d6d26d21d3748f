"""VS Code: map file patterns to languages with files.associations (paper appendix E.1.2)."""

from __future__ import annotations

import random

from skills.vscode.families._common import HEADERS, USER_SETTINGS, base_user_entries
from skills.vscode.families._jsonc import load_jsonc, parse_jsonc, render_jsonc, same_value, write_jsonc
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# (pattern, language id, the display name people confuse with the id)
TARGETS = [
    ("*.config", "json", "JSON"), ("*.tmpl", "html", "HTML"), ("*.cfg", "ini", "Ini"),
    ("*.service", "ini", "Ini"), ("Jenkinsfile*", "groovy", "Groovy"), ("*.mdx", "markdown", "Markdown"),
    ("*.envrc", "shellscript", "Shell Script"), ("*.html.j2", "html", "HTML"), ("*.rules", "yaml", "YAML"),
    ("*.workflow", "yaml", "YAML"), ("*.manifest", "xml", "XML"), ("Makefile.*", "makefile", "Makefile"),
    ("*.pyx", "python", "Python"), ("*.inc", "php", "PHP"), ("*.sqlx", "sql", "SQL"), ("*.conf", "ini", "Ini"),
]  # fmt: skip
KEEP = [("*.ejs", "html"), ("*.mdc", "markdown"), ("Vagrantfile", "ruby"), ("*.bb", "python"),
        ("*.ino", "cpp"), ("*.gltf", "json"), ("*.ksh", "shellscript"), ("*.rviz", "yaml")]  # fmt: skip
STALE_LANGS = ("plaintext", "properties", "xml", "jsonc")


def initial_setup(P):
    path = HOME / P["settings_path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_jsonc(P["entries"], P["header"]), encoding="utf-8")


def golden_patch(P):
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    associations = settings.setdefault("files.associations", {})
    for pattern, language, _ in P["targets"]:
        associations[pattern] = language
    write_jsonc(path, settings, "files.associations updated for the new file types")


def near_miss(P):
    # The classic slip: the language's display name ("Shell Script", "JSON") instead of its id.
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    associations = settings.setdefault("files.associations", {})
    for i, (pattern, language, label) in enumerate(P["targets"]):
        associations[pattern] = label if i == len(P["targets"]) - 1 else language
    write_jsonc(path, settings, "files.associations updated for the new file types")


def reward(P):
    cache = {}

    def settings():
        if "data" not in cache:
            cache["data"] = load_jsonc(HOME / P["settings_path"])
        return cache["data"]

    def associations():
        value = settings().get("files.associations")
        return value if isinstance(value, dict) else {}

    @precondition("user settings.json is still a JSON object")
    def is_object():
        return isinstance(settings(), dict)

    @precondition("every other pre-existing setting keeps its value")
    def others_kept():
        return all(key in settings() and same_value(settings()[key], value)
                   for key, value, _ in P["entries"] if key != "files.associations")  # fmt: skip

    @precondition("the associations that were already there are kept")
    def associations_kept():
        return all(associations().get(pattern) == language for pattern, language in P["keep"])

    weight = round(1.0 / len(P["targets"]), 4)
    for pattern, language, _ in P["targets"]:

        @component(f"{pattern} opens as {language}", weight)
        def mapped(pattern=pattern, language=language):
            # "**/*.x" matches the same files as "*.x"; when both keys exist, both must agree
            values = [associations()[key] for key in (pattern, "**/" + pattern) if key in associations()]
            return bool(values) and all(value == language for value in values)


class FileAssociations(Family):
    id = "vscode.file_associations"
    apps = ("vscode",)
    difficulty = Difficulty.EASY
    leaves = ("vscode/settings/files/file_associations", "vscode/settings/user/edit_settings_json")
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.SCIENCE, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.SCIENTIFIC)
    helpers = (parse_jsonc, load_jsonc, same_value, render_jsonc, write_jsonc)
    templates = {
        Wording.IMPERATIVE: "In your VS Code user settings ({file}), add files.associations entries that map these "
        "file patterns to language ids: {mappings}. Keep every existing setting and association as it is.",
        Wording.REQUEST: "Could you make VS Code open files with these language ids: {mappings} (pattern → "
        "language id)? Put it in files.associations in my user settings ({file}) and don't touch anything else.",
        Wording.CONTEXTUAL: "As {persona}, I keep opening files that VS Code highlights wrongly. In the user "
        "settings at {file}, configure files.associations with {mappings} (pattern → language id). My other "
        "settings and existing associations must stay.",
        Wording.GOAL: "Goal: files.associations in VS Code's user settings ({file}) maps {mappings} (pattern → "
        "language id); all settings already in the file keep their values.",
        Wording.PROBLEM_FIX: "Syntax highlighting is wrong for some files in VS Code. Fix the files.associations "
        "setting in the user settings ({file}) so that it maps {mappings} (pattern → language id), without "
        "losing any other setting.",
    }

    def draw(self, rng: random.Random) -> dict:
        targets = [list(t) for t in rng.sample(TARGETS, rng.randint(2, 3))]
        keep = [list(k) for k in rng.sample(KEEP, rng.randint(1, 2))]
        associations = {pattern: language for pattern, language in keep}
        stale = None
        if rng.random() < 0.4:  # the file already maps one pattern to the wrong language
            stale = targets[0][0]
            associations[stale] = rng.choice([s for s in STALE_LANGS if s != targets[0][1]])
        entries = base_user_entries(rng, rng.randint(3, 5))
        entries.insert(rng.randint(0, len(entries)), ["files.associations", associations,
                                                      rng.choice([None, "legacy templates"])])  # fmt: skip
        return {
            "settings_path": USER_SETTINGS,
            "header": rng.choice(HEADERS),
            "entries": entries,
            "keep": keep,
            "targets": targets,
            "stale": stale,
        }

    def words(self, P: dict) -> dict[str, str]:
        parts = [f"{pattern} → {language}" for pattern, language, _ in P["targets"]]
        mappings = ", ".join(parts[:-1]) + " and " + parts[-1]
        return {"file": "~/" + P["settings_path"], "mappings": mappings}

    def context(self, P: dict) -> str:
        existing = {k: v for k, v, _ in P["entries"]}
        stale = f" It maps {P['stale']!r} to a wrong language that must be corrected." if P["stale"] else ""
        expected = {pattern: language for pattern, language, _ in P["targets"]}
        return (
            f"~/{P['settings_path']} is JSONC (comments, trailing commas) holding {existing}.{stale} "
            f"Expected: files.associations contains {expected} (a '**/' prefix is accepted) and still maps "
            f"{dict((p, lang) for p, lang in P['keep'])}; every other setting unchanged."
        )
