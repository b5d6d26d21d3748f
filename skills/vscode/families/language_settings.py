"""VS Code: editor settings that apply to one language only, in a "[lang]" block of user settings."""

from __future__ import annotations

import json
import random

from skills.vscode.families._common import HEADERS, USER_SETTINGS, base_user_entries
from skills.vscode.families._jsonc import load_jsonc, parse_jsonc, render_jsonc, same_value, write_jsonc
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

LANGUAGES = [("python", "Python"), ("markdown", "Markdown"), ("go", "Go"), ("javascript", "JavaScript"),
             ("typescript", "TypeScript"), ("yaml", "YAML"), ("rust", "Rust"), ("cpp", "C++"), ("java", "Java"),
             ("html", "HTML"), ("css", "CSS"), ("shellscript", "shell script"), ("ruby", "Ruby"),
             ("sql", "SQL"), ("php", "PHP")]  # fmt: skip
FORMATTERS = {"python": "ms-python.black-formatter", "go": "golang.go", "rust": "rust-lang.rust-analyzer",
              "javascript": "esbenp.prettier-vscode", "typescript": "esbenp.prettier-vscode",
              "markdown": "esbenp.prettier-vscode", "yaml": "redhat.vscode-yaml"}  # fmt: skip


DEFAULTS = {"editor.tabSize": 4, "editor.insertSpaces": True, "editor.formatOnSave": False, "editor.rulers": [],
            "editor.wordWrap": "off", "files.trimTrailingWhitespace": False, "files.insertFinalNewline": False,
            "editor.renderWhitespace": "selection", "editor.detectIndentation": True,
            "editor.autoClosingBrackets": "languageDefined"}  # fmt: skip


def _any_value(rng: random.Random, key: str):
    if key == "editor.tabSize":
        return rng.choice([2, 3, 4, 8])
    if key == "editor.rulers":
        first = rng.choice([72, 79, 80, 88, 100])
        return [first] if rng.random() < 0.5 else [first, rng.choice([c for c in (100, 110, 120) if c > first])]
    if key == "editor.wordWrap":
        return rng.choice(["on", "off", "bounded", "wordWrapColumn"])
    if key == "editor.renderWhitespace":
        return rng.choice(["all", "trailing", "boundary", "none", "selection"])
    if key == "editor.autoClosingBrackets":
        return rng.choice(["never", "always", "beforeWhitespace", "languageDefined"])
    return rng.choice([True, False])  # the boolean settings


def _value(rng: random.Random, key: str):
    """A value for `key` other than VS Code's default: a per-language setting that changes something."""
    for _ in range(100):
        candidate = _any_value(rng, key)
        if candidate != DEFAULTS[key]:
            return candidate
    raise AssertionError(f"no non-default value for {key}")


SETTING_KEYS = ("editor.tabSize", "editor.insertSpaces", "editor.formatOnSave", "editor.rulers",
                "editor.wordWrap", "files.trimTrailingWhitespace", "files.insertFinalNewline",
                "editor.renderWhitespace", "editor.detectIndentation", "editor.autoClosingBrackets")  # fmt: skip


def _global_value(rng: random.Random, key: str, target):
    """The global value the language block overrides: the default for booleans, else another value."""
    if isinstance(target, bool):
        return not target
    for _ in range(100):
        candidate = _any_value(rng, key)
        if candidate != target:
            return candidate
    raise AssertionError(f"no global value for {key} differs from {target!r}")


def initial_setup(P):
    path = HOME / P["settings_path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_jsonc(P["entries"], P["header"]), encoding="utf-8")


def golden_patch(P):
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    block = settings.setdefault("[" + P["lang"] + "]", {})
    for key, value in P["targets"]:
        block[key] = value
    write_jsonc(path, settings, "language-specific settings")


def near_miss(P):
    # Right values, but the last one lands at the top level (every language) instead of in the block.
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    block = settings.setdefault("[" + P["lang"] + "]", {})
    for key, value in P["targets"][:-1]:
        block[key] = value
    last_key, last_value = P["targets"][-1]
    settings[last_key] = last_value
    write_jsonc(path, settings, "language-specific settings")


def reward(P):
    cache = {}
    block_key = "[" + P["lang"] + "]"

    def settings():
        if "data" not in cache:
            cache["data"] = load_jsonc(HOME / P["settings_path"])
        return cache["data"]

    def block():
        value = settings().get(block_key)
        return value if isinstance(value, dict) else {}

    @precondition("user settings.json is still a JSON object")
    def is_object():
        return isinstance(settings(), dict)

    @precondition("global settings and other language blocks keep their values")
    def others_kept():
        return all(key in settings() and same_value(settings()[key], value)
                   for key, value, _ in P["entries"] if key != block_key)  # fmt: skip

    @precondition("settings already in the language block are kept")
    def block_kept():
        return all(key in block() and same_value(block()[key], value) for key, value in P["block_keep"].items())

    weight = round(1.0 / len(P["targets"]), 4)
    for key, value in P["targets"]:

        @component(f"{block_key} sets {key}", weight)
        def in_block(key=key, value=value):
            return key in block() and same_value(block()[key], value)


class LanguageSettings(Family):
    id = "vscode.language_settings"
    apps = ("vscode",)
    difficulty = Difficulty.MEDIUM
    leaves = ("vscode/settings/language_specific/language_block", "vscode/settings/editor/indentation",
              "vscode/settings/editor/rulers_and_wrap", "vscode/settings/editor/format_on_save")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.SCIENCE, Domain.EDUCATION)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.PERSONAL)
    helpers = (parse_jsonc, load_jsonc, same_value, render_jsonc, write_jsonc)
    templates = {
        Wording.IMPERATIVE: "In VS Code, configure these editor settings for {label} files only (language id "
        "{lang}), in the user settings {file}: {settings}. The global values and every other setting must stay "
        "as they are.",
        Wording.REQUEST: "Can you give {label} files (language id {lang}) their own VS Code settings? In my user "
        "settings ({file}) they should get {settings}, while all other languages keep the current global "
        "values. Please leave the rest of the file alone.",
        Wording.CONTEXTUAL: "As {persona}, I follow a different style guide for {label} than for everything "
        "else. Set up language-specific settings for language id {lang} in {file}: {settings}. Don't change "
        "the global defaults or any other setting.",
        Wording.GOAL: "Goal: the user settings {file} contain a language-specific block for {lang} ({label}) "
        "with {settings}; global settings and other blocks keep their current values.",
        Wording.PROBLEM_FIX: "My {label} files get the global editor settings, which break the project's "
        "conventions. Fix it with settings that apply only to language id {lang} in {file}: {settings}. The "
        "global values must stay as they are for other languages.",
    }

    def draw(self, rng: random.Random) -> dict:
        lang, label = rng.choice(LANGUAGES)
        keys = rng.sample(SETTING_KEYS, rng.randint(3, 4))
        targets = [[key, _value(rng, key)] for key in keys]
        # Global values for some requested keys (never the last one, which the near miss sets globally)
        # prove the task is per-language: changing them instead of adding the block fails a precondition.
        overridden = targets[: rng.randint(1, len(targets) - 1)]
        entries = [[key, _global_value(rng, key, value), None] for key, value in overridden]
        entries += base_user_entries(rng, rng.randint(2, 4), exclude=tuple(SETTING_KEYS))
        other_lang = rng.choice([code for code, _ in LANGUAGES if code != lang])
        entries.append([f"[{other_lang}]", {"editor.wordWrap": "on"} if rng.random() < 0.5
                        else {"editor.tabSize": rng.choice([2, 4])}, f"{other_lang} files"])  # fmt: skip
        block_keep = {}
        if lang in FORMATTERS and rng.random() < 0.6:  # a block for the language may already exist
            block_keep = {"editor.defaultFormatter": FORMATTERS[lang]}
            entries.append([f"[{lang}]", block_keep, None])
        rng.shuffle(entries)
        return {
            "settings_path": USER_SETTINGS,
            "header": rng.choice(HEADERS),
            "lang": lang,
            "label": label,
            "entries": entries,
            "block_keep": block_keep,
            "targets": targets,
        }

    def words(self, P: dict) -> dict[str, str]:
        settings = ", ".join(f"{key} = {json.dumps(value)}" for key, value in P["targets"])
        return {"file": "~/" + P["settings_path"], "lang": P["lang"], "label": P["label"], "settings": settings}

    def context(self, P: dict) -> str:
        existing = {k: v for k, v, _ in P["entries"]}
        expected = {k: v for k, v in P["targets"]}
        return (
            f"~/{P['settings_path']} is JSONC holding {existing}. Expected: a \"[{P['lang']}]\" object containing "
            f"{expected} (plus {P['block_keep'] or 'nothing else required'}); every top-level setting and the "
            f"other language blocks unchanged."
        )
