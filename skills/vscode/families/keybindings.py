"""VS Code: add custom keyboard shortcuts and remove a default one. Data and wording: keybindings.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.jsonc import load_jsonc, norm_key, norm_when
from skills.kit.guest.rewardkit import component, precondition
from skills.vscode.world import KEYBINDINGS


def draw(rng, pools):
    removal = list(rng.choice(pools["removals"]))
    adds = []
    used = {norm_key(removal[0])}
    for command, purpose, keys, when in rng.sample(pools["adds"], 2):
        key = rng.choice([k for k in keys if norm_key(k) not in used])
        used.add(norm_key(key))
        adds.append([key, command, when if when and rng.random() < 0.8 else None, purpose])
    taken = {a[1] for a in adds} | {removal[1]}
    existing = [
        list(e)
        for e in rng.sample(pools["existing"], rng.randint(1, 3))
        if e[1] not in taken and norm_key(e[0]) not in used
    ]
    first = rng.choice([0.3, 0.35, 0.4])
    weights = {"adds": [first, 0.7 - first], "remove": 0.3}
    return {"path": KEYBINDINGS, "existing": existing, "adds": adds, "remove": removal, "weights": weights}


def initial_setup(P):
    import json

    entries = "".join(
        f"    {json.dumps({'key': k, 'command': c, **({'when': w} if w else {})})},\n"
        for k, c, w in P["existing"]
    )
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"// Place your key bindings in this file to override the defaults\n[\n{entries}]\n", encoding="utf-8"
    )


def solve(P, *, mistake=None):
    import json

    path = HOME / P["path"]
    bindings = load_jsonc(path) or []
    bindings += [{"key": k, "command": c, **({"when": w} if w else {})} for k, c, w, _ in P["adds"]]
    removal = P["remove"][1] if mistake == "rebinds_default" else "-" + P["remove"][1]
    bindings.append({"key": P["remove"][0], "command": removal})
    text = "// Place your key bindings in this file to override the defaults\n" + json.dumps(
        bindings, indent=4
    )
    path.write_text(text + "\n", encoding="utf-8")


def reward(P):
    import functools

    @functools.cache
    def bindings():
        data = load_jsonc(HOME / P["path"])
        return [b for b in data if isinstance(b, dict)] if isinstance(data, list) else None

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

    for (key, command, when, _), weight in zip(P["adds"], P["weights"]["adds"], strict=True):

        @component(f"{key} runs {command}" + (f" when {when}" if when else ""), weight)
        def added(key=key, command=command, when=when):
            return has_binding(key, command, when)

    @component(f"the default {P['remove'][0]} binding of {P['remove'][1]} is removed", P["weights"]["remove"])
    def removed():
        return has_binding(P["remove"][0], "-" + P["remove"][1], None)


def demonstrate(P, screen):
    """Preferences: Open Keyboard Shortcuts (JSON) from the Command Palette, then, right after the
    array's `[`, type the new rules (each with a comma: the old ones follow) and the `-command` rule
    that removes the default binding; save with ctrl+s."""
    import json

    from skills.vscode.families import _gui

    rules = [{"key": k, "command": c, **({"when": w} if w else {})} for k, c, w, _ in P["adds"]]
    rules.append({"key": P["remove"][0], "command": "-" + P["remove"][1]})  # "-": remove a default binding
    _gui.ready(screen)
    yield from _gui.command(screen, "Preferences: Open Keyboard Shortcuts (JSON)", opens="keybindings.json")
    yield from _gui.after(screen, "[")
    yield _gui.type_json(" " + "".join(json.dumps(rule) + ", " for rule in rules))
    yield from _gui.save(screen)
