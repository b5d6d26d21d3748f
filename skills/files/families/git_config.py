"""Files: set git's global config from the terminal. Data and wording: git_config.yaml.

~/.gitconfig starts as a config copied from an old job (old identity, colour and line-ending
settings). The reward parses the file the way git reads it (sections, `[section "sub"]`, last value
wins, case-insensitive section and key names, quotes and comments) rather than matching lines, so
`git config --global`, an editor, or a hand-written file all count."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    name, login = rng.choice(pools["people"])
    first = name.split()[0].lower()
    aliases = [rng.choice(pools["short_aliases"]), rng.choice(pools["long_aliases"])]
    if rng.random() < 0.5:
        aliases.insert(0, rng.choice([a for a in pools["short_aliases"] if a != aliases[0]]))
    branch = rng.choice(pools["branches"]) if rng.random() < 0.5 else None
    weights = {"identity": 0.3, "editor": 0.2, "aliases": 0.3, "branch": 0.2}
    if not branch:
        weights = {"identity": 0.35, "editor": 0.25, "aliases": 0.4}
    return dict(
        name=name,
        email=f"{first}.{name.split()[-1].lower()}@{rng.choice(pools['new_domains'])}",
        old_user=login,
        old_email=f"{login}@{rng.choice(pools['old_domains'])}",
        editor=rng.choice(pools["editors"]),
        aliases=[list(a) for a in aliases],
        branch=branch,
        weights=weights,
    )


def initial_setup(P):
    import os

    path = HOME / ".gitconfig"
    path.write_text(
        f"[user]\n\tname = {P['old_user']}\n\temail = {P['old_email']}\n"
        "[color]\n\tui = auto\n[core]\n\tautocrlf = input\n",
        encoding="utf-8",
    )
    os.chmod(path, 0o644)


def solve(P, *, mistake=None):
    """Edits the file as `git config --global` does: a key is set in place in its section, or added
    at the end of its section, a new section goes at the end."""
    path = HOME / ".gitconfig"
    settings = [("user", "name", P["name"])]
    if mistake != "email_unchanged":
        settings.append(("user", "email", P["email"]))
    settings.append(("core", "editor", P["editor"]))
    for key, value in P["aliases"]:
        if mistake == "alias_truncated" and " " in value:
            value = value.split()[0]
        settings.append(("alias", key, value))
    if P["branch"]:
        settings.append(("init", "defaultBranch", P["branch"]))
    lines = path.read_text(encoding="utf-8").splitlines()
    for section, key, value in settings:
        headers = [i for i, line in enumerate(lines) if line.strip() == f"[{section}]"]
        if not headers:
            lines += [f"[{section}]", f"\t{key} = {value}"]
            continue
        start = headers[0] + 1
        end = next((i for i in range(start, len(lines)) if lines[i].strip().startswith("[")), len(lines))
        found = [i for i in range(start, end) if lines[i].split("=")[0].strip().lower() == key.lower()]
        if found:
            lines[found[0]] = f"\t{key} = {value}"
        else:
            lines.insert(end, f"\t{key} = {value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_gitconfig(path):
    """{"section.key" or "section.sub.key": value} as git reads the file: names of sections and keys
    are case-insensitive (lowered here), subsections keep their case, the last value wins, `#` and
    `;` start comments outside double quotes, quotes are removed and backslash escapes undone."""
    found = {}
    section = None
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            head = line[1 : line.index("]")] if "]" in line else line[1:]
            if '"' in head:
                base, sub = head.split('"', 1)
                section = f"{base.strip().lower()}.{sub.rsplit(chr(34), 1)[0]}"
            else:
                section = head.strip().lower()
            line = line[line.index("]") + 1 :].strip() if "]" in line else ""
            if not line:
                continue
        if section is None:
            continue
        key, sep, rest = line.partition("=")
        value, quoted, escaped = [], False, False
        for ch in rest.strip() if sep else "true":
            if escaped:
                value.append({"n": "\n", "t": "\t"}.get(ch, ch))
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = not quoted
            elif ch in "#;" and not quoted:
                break
            else:
                value.append(ch)
        found[f"{section}.{key.strip().lower()}"] = "".join(value).strip()
    return found


def reward(P):
    w = P["weights"]
    conf = read_gitconfig(HOME / ".gitconfig")

    def squash(value):
        return " ".join((value or "").split())

    @precondition("the settings already in ~/.gitconfig (color.ui, core.autocrlf) are kept")
    def kept():
        return conf.get("color.ui") == "auto" and conf.get("core.autocrlf") == "input"

    @component(f"user.name is {P['name']!r} and user.email is {P['email']!r}", w["identity"])
    def identity():
        return ((conf.get("user.name") == P["name"]) + (conf.get("user.email") == P["email"])) / 2

    @component(f"core.editor is {P['editor']}", w["editor"])
    def editor():
        return conf.get("core.editor") == P["editor"]

    @component("every alias asked for expands to its full command", w["aliases"])
    def aliases():
        ok = [squash(conf.get(f"alias.{key.lower()}")) == squash(value) for key, value in P["aliases"]]
        return sum(ok) / len(ok)

    if P["branch"]:

        @component(f"init.defaultBranch is {P['branch']}", w["branch"])
        def branch():
            return conf.get("init.defaultbranch") == P["branch"]


def demonstrate(P, screen):
    """A terminal is open at the home: one `git config --global` per setting, then list them."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    settings = [("user.name", P["name"]), ("user.email", P["email"]), ("core.editor", P["editor"])]
    settings += [(f"alias.{key}", value) for key, value in P["aliases"]]
    if P["branch"]:
        settings.append(("init.defaultBranch", P["branch"]))
    for key, value in settings:
        yield [{"action": "type", "text": f"git config --global {key} {shlex.quote(value)}\n"}]
    yield [{"action": "type", "text": "git config --global --list\n"}, {"action": "wait", "time": 0.5}]
