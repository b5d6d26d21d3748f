"""VS Code: map file patterns to languages with files.associations. Data and wording: file_associations.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import load_jsonc, same_value, seed_jsonc, write_jsonc
from skills.kit.guest.rewardkit import component, precondition
from skills.vscode.world import HEADERS, USER_SETTINGS, base_user_entries


def draw(rng, pools):
    targets = [list(t) for t in rng.sample(pools["targets"], rng.randint(2, 3))]
    keep = [list(k) for k in rng.sample(pools["keep"], rng.randint(1, 2))]
    associations = dict(keep)
    stale = None
    if rng.random() < 0.4:  # the file already maps one pattern to the wrong language
        stale = targets[0][0]
        associations[stale] = rng.choice([s for s in pools["stale_langs"] if s != targets[0][1]])
    entries = base_user_entries(rng, rng.randint(3, 5))
    at = rng.randint(0, len(entries))
    entries.insert(at, ["files.associations", associations, rng.choice([None, "legacy templates"])])
    header = rng.choice(HEADERS)
    return dict(
        settings_path=USER_SETTINGS, header=header, entries=entries, keep=keep, targets=targets, stale=stale
    )


def initial_setup(P):
    seed_jsonc(HOME / P["settings_path"], P["entries"], P["header"])


def solve(P, *, mistake=None):
    path = HOME / P["settings_path"]
    settings = load_jsonc(path) or {}
    associations = settings.setdefault("files.associations", {})
    for pattern, language, _ in P["targets"]:
        associations[pattern] = language
    if mistake == "display_name":
        associations[P["targets"][-1][0]] = P["targets"][-1][2]
    write_jsonc(path, settings, "files.associations updated for the new file types")


def reward(P):
    import functools

    @functools.cache
    def settings():
        return load_jsonc(HOME / P["settings_path"])

    def associations():
        value = settings().get("files.associations")
        return value if isinstance(value, dict) else {}

    @precondition("user settings.json is still a JSON object")
    def is_object():
        return isinstance(settings(), dict)

    @precondition("every other pre-existing setting keeps its value")
    def others_kept():
        return all(
            key in settings() and same_value(settings()[key], value)
            for key, value, _ in P["entries"]
            if key != "files.associations"
        )

    @precondition("the associations that were already there are kept")
    def associations_kept():
        return all(associations().get(pattern) == language for pattern, language in P["keep"])

    for pattern, language, _ in P["targets"]:

        @component(f"{pattern} opens as {language}", round(1.0 / len(P["targets"]), 4))
        def mapped(pattern=pattern, language=language):
            # "**/*.x" matches the same files as "*.x"; when both keys exist, both must agree
            values = [associations()[key] for key in (pattern, "**/" + pattern) if key in associations()]
            return bool(values) and all(value == language for value in values)


def demonstrate(P, screen):
    """No VS Code here: open the user settings.json in nano from the terminal, type the new patterns
    right after the `"files.associations": {` line (each with a comma, the old ones follow), and cut
    the line of a pattern already mapped to a wrong language (JSONC forgives the comma left before it)."""
    import json

    path = "~/" + P["settings_path"]
    entries = "".join(f"\n        {json.dumps(p)}: {json.dumps(lang)}," for p, lang, _ in P["targets"])
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cat {path}\n"}]
    yield [{"action": "type", "text": f"nano {path}\n"}, {"action": "wait", "time": 1.5}]
    yield [{"action": "key", "keys": ["ctrl", "w"]}, {"action": "type", "text": '"files.associations": {\n'}]
    yield [{"action": "key", "keys": ["end"]}, {"action": "type", "text": entries}]
    if P["stale"]:  # searched from after the new lines, so this finds the old mapping
        yield [
            {"action": "key", "keys": ["ctrl", "w"]},
            {"action": "type", "text": json.dumps(P["stale"]) + ":\n"},
        ]
        yield [{"action": "key", "keys": ["ctrl", "k"]}]  # cut the whole line
    yield [{"action": "key", "keys": ["ctrl", "o"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "key", "keys": ["enter"]}, {"action": "wait", "time": 0.5}]  # keep the file name
    yield [{"action": "key", "keys": ["ctrl", "x"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "type", "text": f"cat {path}\n"}, {"action": "wait", "time": 0.5}]
