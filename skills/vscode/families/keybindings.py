"""VS Code: add custom keyboard shortcuts and remove a default one in keybindings.json."""

from __future__ import annotations

import random

from skills.vscode.families._common import KEYBINDINGS
from skills.vscode.families._jsonc import load_jsonc, norm_key, norm_when, parse_jsonc
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# (command, what it does, candidate keys, when clause or None)
ADDS = [
    ("workbench.action.terminal.toggleTerminal", "toggle the integrated terminal", ["ctrl+alt+t", "ctrl+shift+alt+t"], None),
    ("editor.action.formatDocument", "format the document", ["ctrl+alt+f", "ctrl+shift+alt+f"], "editorTextFocus && !editorReadonly"),
    ("workbench.action.files.saveAll", "save all open files", ["ctrl+alt+s", "ctrl+k ctrl+alt+s"], None),
    ("editor.action.duplicateSelection", "duplicate the selection", ["ctrl+shift+d", "ctrl+alt+d"], "editorTextFocus"),
    ("workbench.action.toggleZenMode", "toggle Zen mode", ["ctrl+alt+z", "ctrl+k ctrl+alt+z"], None),
    ("editor.action.sortLinesAscending", "sort lines ascending", ["ctrl+alt+o", "f9"], "editorTextFocus && !editorReadonly"),
    ("workbench.action.splitEditorRight", "split the editor to the right", ["ctrl+alt+\\", "ctrl+k ctrl+alt+right"], None),
    ("markdown.showPreviewToSide", "open the Markdown preview to the side", ["ctrl+alt+m", "ctrl+k ctrl+alt+m"], "editorLangId == markdown"),
    ("workbench.action.closeOtherEditors", "close the other editors", ["ctrl+alt+w", "ctrl+k ctrl+alt+w"], None),
    ("editor.action.transformToUppercase", "transform the selection to upper case", ["ctrl+alt+u", "ctrl+shift+alt+u"], "editorTextFocus && editorHasSelection"),
    ("workbench.action.terminal.new", "create a new terminal", ["ctrl+alt+n", "ctrl+shift+alt+n"], None),
    ("editor.action.joinLines", "join lines", ["ctrl+alt+j", "ctrl+shift+alt+j"], "editorTextFocus && !editorReadonly"),
    ("workbench.action.gotoLine", "go to a line", ["ctrl+alt+g", "f8"], None),
    ("workbench.action.debug.run", "run without debugging", ["ctrl+alt+r", "f6"], "!inDebugMode"),
]  # fmt: skip
# default Linux bindings a user commonly wants gone: (key, command, label)
REMOVALS = [
    ("ctrl+b", "workbench.action.toggleSidebarVisibility", "Ctrl+B (toggle the side bar)"),
    ("ctrl+w", "workbench.action.closeActiveEditor", "Ctrl+W (close the editor)"),
    ("ctrl+shift+k", "editor.action.deleteLines", "Ctrl+Shift+K (delete line)"),
    ("ctrl+d", "editor.action.addSelectionToNextFindMatch", "Ctrl+D (add selection to next find match)"),
    ("ctrl+shift+c", "workbench.action.terminal.openNativeConsole", "Ctrl+Shift+C (open a native terminal)"),
    ("ctrl+q", "workbench.action.quit", "Ctrl+Q (quit)"),
    ("ctrl+shift+n", "workbench.action.newWindow", "Ctrl+Shift+N (new window)"),
    ("ctrl+k z", "workbench.action.toggleZenMode", "Ctrl+K Z (Zen mode)"),
    ("ctrl+j", "workbench.action.togglePanel", "Ctrl+J (toggle the panel)"),
]  # fmt: skip
EXISTING = [
    ("ctrl+shift+alt+r", "workbench.action.reloadWindow", None),
    ("ctrl+alt+p", "workbench.action.showCommands", None),
    ("ctrl+shift+alt+l", "editor.action.insertCursorAtEndOfEachLineSelected", "editorTextFocus"),
    ("ctrl+alt+e", "workbench.view.explorer", None),
    ("ctrl+shift+alt+c", "copyFilePath", "!editorFocus"),
    ("ctrl+alt+b", "workbench.action.toggleAuxiliaryBar", None),
]  # fmt: skip


def initial_setup(P):
    import json

    lines = ["// Place your key bindings in this file to override the defaults", "["]
    for key, command, when in P["existing"]:
        entry = {"key": key, "command": command}
        if when:
            entry["when"] = when
        lines.append("    " + json.dumps(entry) + ",")
    lines.append("]")
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _write_bindings(P, removal_command):
    import json

    path = HOME / P["path"]
    bindings = load_jsonc(path) or []
    for key, command, when, _ in P["adds"]:
        entry = {"key": key, "command": command}
        if when:
            entry["when"] = when
        bindings.append(entry)
    bindings.append({"key": P["remove"][0], "command": removal_command})
    text = "// Place your key bindings in this file to override the defaults\n" + json.dumps(bindings, indent=4)
    path.write_text(text + "\n", encoding="utf-8")


def golden_patch(P):
    _write_bindings(P, "-" + P["remove"][1])


def near_miss(P):
    # The removal entry forgets the leading "-": it re-binds the default instead of removing it.
    _write_bindings(P, P["remove"][1])


def reward(P):
    cache = {}

    def bindings():
        if "data" not in cache:
            data = load_jsonc(HOME / P["path"])
            cache["data"] = [b for b in data if isinstance(b, dict)] if isinstance(data, list) else None
        return cache["data"]

    def has_binding(key, command, when):
        for b in bindings():
            if norm_key(b.get("key", "")) != norm_key(key) or b.get("command") != command:
                continue
            if when is None or norm_when(b.get("when")) == norm_when(when):
                return True
        return False

    @precondition("keybindings.json is still a JSON array")
    def is_array():
        return bindings() is not None

    @precondition("the user's existing shortcuts are kept")
    def existing_kept():
        return all(has_binding(key, command, when) for key, command, when in P["existing"])

    weights = P["weights"]
    for (key, command, when, _), weight in zip(P["adds"], weights["adds"], strict=True):

        @component(f"{key} runs {command}" + (f" when {when}" if when else ""), weight)
        def added(key=key, command=command, when=when):
            return has_binding(key, command, when)

    @component(f"the default {P['remove'][0]} binding of {P['remove'][1]} is removed", weights["remove"])
    def removed():
        return has_binding(P["remove"][0], "-" + P["remove"][1], None)


def _describe(key: str, command: str, when: str | None, purpose: str) -> str:
    text = f"`{key}` runs `{command}` ({purpose})"
    return text + (f" only when `{when}`" if when else "")


class Keybindings(Family):
    id = "vscode.keybindings"
    apps = ("vscode",)
    difficulty = Difficulty.MEDIUM
    leaves = ("vscode/keybindings/add_keybinding", "vscode/keybindings/when_clause",
              "vscode/keybindings/remove_default")  # fmt: skip
    domains = (Domain.COMPUTER_MATH, Domain.ENGINEERING, Domain.ARTS_MEDIA, Domain.SCIENCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL)
    helpers = (parse_jsonc, load_jsonc, norm_key, norm_when, _write_bindings)
    templates = {
        Wording.IMPERATIVE: "Add VS Code keyboard shortcuts so that {adds}. Also remove the default shortcut "
        "{remove_label} so that the key no longer runs {remove_command}. Keep the shortcuts already in "
        "{file}.",
        Wording.REQUEST: "Could you change my VS Code shortcuts? I'd like {adds}. And please get rid of the "
        "default {remove_label} binding for {remove_command}. My existing custom shortcuts in {file} should "
        "stay.",
        Wording.CONTEXTUAL: "As {persona}, I'm used to another editor's keys. In VS Code (user keybindings, "
        "{file}) set it up so that {adds}; the default {remove_label} binding of {remove_command} keeps "
        "getting in my way, so remove it. Don't lose the custom shortcuts I already have.",
        Wording.GOAL: "Goal: in VS Code, {adds}; the default {remove_label} shortcut no longer runs "
        "{remove_command}; the custom shortcuts already in {file} are still there.",
        Wording.PROBLEM_FIX: "My VS Code shortcuts are not set up the way I work. Fix the user keybindings "
        "({file}) so that {adds}, and remove the default {remove_label} binding of {remove_command}, "
        "keeping the shortcuts I already defined.",
    }

    def draw(self, rng: random.Random) -> dict:
        removal = list(rng.choice(REMOVALS))
        adds = []
        used = {norm_key(removal[0])}
        for command, purpose, keys, when in rng.sample(ADDS, 2):
            key = rng.choice([k for k in keys if norm_key(k) not in used])
            used.add(norm_key(key))
            adds.append([key, command, when if when and rng.random() < 0.8 else None, purpose])
        taken = {a[1] for a in adds} | {removal[1]}
        existing = [list(e) for e in rng.sample(EXISTING, rng.randint(1, 3))
                    if e[1] not in taken and norm_key(e[0]) not in used]  # fmt: skip
        first = rng.choice([0.3, 0.35, 0.4])
        return {
            "path": KEYBINDINGS,
            "existing": existing,
            "adds": adds,
            "remove": removal,
            "weights": {"adds": [first, 0.7 - first], "remove": 0.3},
        }

    def words(self, P: dict) -> dict[str, str]:
        adds = [_describe(*a) for a in P["adds"]]
        return {"file": "~/" + P["path"], "adds": " and ".join(adds), "remove_label": P["remove"][2],
                "remove_command": f"`{P['remove'][1]}`"}  # fmt: skip

    def context(self, P: dict) -> str:
        adds = [{"key": k, "command": c, **({"when": w} if w else {})} for k, c, w, _ in P["adds"]]
        return (
            f"~/{P['path']} is a JSONC array (leading comment, trailing comma) with user bindings "
            f"{P['existing']} (key, command, when). Expected: those kept, plus {adds} (key modifiers in any "
            f"order; when clauses compared without spaces or quotes; a binding asked without a when clause may "
            f"have any), plus a removal rule {{'key': {P['remove'][0]!r}, 'command': '-{P['remove'][1]}'}}."
        )
