"""VS Code: editor settings for one language only, in a "[lang]" block. Data and wording: language_settings.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import load_jsonc, same_value, seed_jsonc, write_jsonc
from skills.kit.guest.rewardkit import component, precondition
from skills.vscode.world import HEADERS, USER_SETTINGS, base_user_entries


def draw(rng, pools):
    settings = pools["settings"]

    def other_than(key, value):  # a value for `key` that differs from `value`
        while True:
            if key == "editor.rulers":
                first = rng.choice([72, 79, 80, 88, 100])
                more = [] if rng.random() < 0.5 else [rng.choice([c for c in (100, 110, 120) if c > first])]
                candidate = [first, *more]
            else:
                candidate = rng.choice(settings[key][1])
            if candidate != value:
                return candidate

    lang, label = rng.choice(pools["languages"])
    keys = rng.sample(list(settings), rng.randint(3, 4))
    targets = [[key, other_than(key, settings[key][0])] for key in keys]  # each changes VS Code's default
    # Global values for some requested keys (never the last one, which the near miss sets globally)
    # prove the task is per-language: changing them instead of adding the block fails a precondition.
    overridden = targets[: rng.randint(1, len(targets) - 1)]
    entries = [[key, not v if isinstance(v, bool) else other_than(key, v), None] for key, v in overridden]
    entries += base_user_entries(rng, rng.randint(2, 4), exclude=tuple(settings))
    other_lang = rng.choice([code for code, _ in pools["languages"] if code != lang])
    block = {"editor.wordWrap": "on"} if rng.random() < 0.5 else {"editor.tabSize": rng.choice([2, 4])}
    entries.append([f"[{other_lang}]", block, f"{other_lang} files"])
    block_keep = {}
    if lang in pools["formatters"] and rng.random() < 0.6:  # a block for the language may already exist
        block_keep = {"editor.defaultFormatter": pools["formatters"][lang]}
        entries.append([f"[{lang}]", block_keep, None])
    rng.shuffle(entries)
    header = rng.choice(HEADERS)
    return dict(
        settings_path=USER_SETTINGS,
        header=header,
        lang=lang,
        label=label,
        entries=entries,
        block_keep=block_keep,
        targets=targets,
    )


def initial_setup(P):
    seed_jsonc(HOME / P["settings_path"], P["entries"], P["header"])


def solve(P, *, mistake=None):
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    block = settings.setdefault("[" + P["lang"] + "]", {})
    for i, (key, value) in enumerate(P["targets"]):
        (settings if mistake == "last_global" and i == len(P["targets"]) - 1 else block)[key] = value
    write_jsonc(path, settings, "language-specific settings")


def reward(P):
    import functools

    block_key = "[" + P["lang"] + "]"

    @functools.cache
    def settings():
        return load_jsonc(HOME / P["settings_path"])

    def block():
        value = settings().get(block_key)
        return value if isinstance(value, dict) else {}

    @precondition("user settings.json is still a JSON object")
    def is_object():
        return isinstance(settings(), dict)

    @precondition("global settings and other language blocks keep their values")
    def others_kept():
        return all(
            key in settings() and same_value(settings()[key], value)
            for key, value, _ in P["entries"]
            if key != block_key
        )

    @precondition("settings already in the language block are kept")
    def block_kept():
        return all(
            key in block() and same_value(block()[key], value) for key, value in P["block_keep"].items()
        )

    for key, value in P["targets"]:

        @component(f"{block_key} sets {key}", round(1.0 / len(P["targets"]), 4))
        def in_block(key=key, value=value):
            return key in block() and same_value(block()[key], value)


def demonstrate(P, screen):
    """Preferences: Open User Settings (JSON) from the Command Palette; type the settings into the
    language's block (right after its `{` when the file has one, else a new `"[lang]": {...}` key right
    after the settings object's `{`); save with ctrl+s."""
    import json

    from skills.vscode.families import _gui

    block_key = "[" + P["lang"] + "]"
    values = dict(P["targets"])
    _gui.ready(screen)
    yield from _gui.command(screen, "Preferences: Open User Settings (JSON)", opens="settings.json")
    if P["block_keep"]:
        yield from _gui.after(screen, json.dumps(block_key) + ": {")
        yield _gui.type_json(" " + _gui.pairs(values))
    else:
        yield from _gui.after(screen, "{")
        yield _gui.type_json(f" {json.dumps(block_key)}: {json.dumps(values)}, ")
    yield from _gui.save(screen)
