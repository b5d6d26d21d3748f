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
    """No VS Code here: open keybindings.json in nano from the terminal, put the cursor after the
    array's `[`, type the new bindings (each with a comma, the old ones follow), save and exit."""
    import json

    def binding(key, command, when=None):
        lines = [f'        "key": {json.dumps(key)}', f'        "command": {json.dumps(command)}']
        lines += [f'        "when": {json.dumps(when)}'] if when else []
        return "    {\n" + ",\n".join(lines) + "\n    },\n"

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"nano ~/{P['path']}\n"}, {"action": "wait", "time": 1.5}]
    yield [{"action": "key", "keys": ["ctrl", "w"]}, {"action": "type", "text": "[\n"}]  # find the array
    added = [binding(key, command, when) for key, command, when, _ in P["adds"]]
    added.append(binding(P["remove"][0], "-" + P["remove"][1]))  # a "-" command removes a default binding
    yield [{"action": "key", "keys": ["end"]}, {"action": "type", "text": "\n" + "".join(added).rstrip("\n")}]
    yield [{"action": "key", "keys": ["ctrl", "o"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "key", "keys": ["enter"]}, {"action": "wait", "time": 0.5}]  # keep the file name
    yield [{"action": "key", "keys": ["ctrl", "x"]}, {"action": "wait", "time": 0.5}]
    yield [{"action": "type", "text": f"cat ~/{P['path']}\n"}, {"action": "wait", "time": 0.5}]
