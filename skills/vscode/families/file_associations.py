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
    """Preferences: Open User Settings (JSON) from the Command Palette; delete the line of a pattern
    already mapped to a wrong language, type the new patterns right after `"files.associations": {`
    (each with a comma: the old ones follow), save with ctrl+s."""
    from skills.vscode.families import _gui

    _gui.ready(screen)
    yield from _gui.command(screen, "Preferences: Open User Settings (JSON)", opens="settings.json")
    if P["stale"]:
        yield from _gui.delete_line_of(screen, f'"{P["stale"]}": ')
    yield from _gui.after(screen, '"files.associations": {')
    yield _gui.type_json(" " + _gui.pairs({p: lang for p, lang, _ in P["targets"]}))
    yield from _gui.save(screen)
