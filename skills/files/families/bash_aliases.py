"""Files: make aliases, an exported variable and a PATH entry permanent in ~/.bashrc. Data and
wording: bash_aliases.yaml.

A reward may not start processes (tasks/scan), so it reads ~/.bashrc the way bash would rather than
grepping it: a small reader of the commands that matter (alias, export, NAME=value, declare -x,
unset, `.`/`source`) with bash's quoting, $NAME and ~ expansion, so `alias gs="git status"`,
`export X=~/y`, `X=$HOME/y; export X` all count and a commented-out or unexported line does not.
PATH starts as "<inherited>": a PATH assignment that drops $PATH loses it."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    aliases = [list(a) for a in rng.sample(pools["aliases"], rng.randint(1, 2))]
    var, var_dir = rng.choice(pools["variables"])
    return dict(
        aliases=aliases,
        project=rng.choice(pools["projects"]),
        project_alias=rng.choice(["proj", "work", "cdp"]),
        var=var,
        var_dir=var_dir,
        tool_dir=rng.choice(pools["tool_dirs"]),
        tool=rng.choice(pools["tools"]),
    )


def bashrc_text():
    """The ~/.bashrc a Debian user starts with (abridged)."""
    return """# ~/.bashrc: executed by bash(1) for non-login shells.

# If not running interactively, don't do anything
case $- in
    *i*) ;;
      *) return;;
esac

# don't put duplicate lines or lines starting with space in the history.
HISTCONTROL=ignoreboth
shopt -s histappend
HISTSIZE=1000
HISTFILESIZE=2000

# check the window size after each command
shopt -s checkwinsize

PS1='${debian_chroot:+($debian_chroot)}\\u@\\h:\\w\\$ '

# some more ls aliases
alias ll='ls -alF'
alias la='ls -A'
"""


def initial_setup(P):
    import os

    (HOME / ".bashrc").write_text(bashrc_text(), encoding="utf-8")
    os.chmod(HOME / ".bashrc", 0o644)
    for folder in (f"Projects/{P['project']}", P["var_dir"], P["tool_dir"]):
        (HOME / folder).mkdir(parents=True, exist_ok=True)
    tool = HOME / P["tool_dir"] / P["tool"]
    tool.write_text(f"#!/bin/sh\necho '{P['tool']}: nothing to do'\n", encoding="utf-8")
    os.chmod(tool, 0o755)


def solve(P, *, mistake=None):
    aliases = P["aliases"] + [[P["project_alias"], f"cd ~/Projects/{P['project']}"]]
    if mistake == "alias_missed":
        aliases = aliases[:-1]
    lines = [""]
    lines += [f"alias {name}='{value}'" for name, value in aliases]
    lines.append(("" if mistake == "not_exported" else "export ") + f'{P["var"]}="$HOME/{P["var_dir"]}"')
    lines.append(f'export PATH="$HOME/{P["tool_dir"]}"' + ("" if mistake == "path_replaced" else ':"$PATH"'))
    with open(HOME / ".bashrc", "a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def shell_words(line):
    """The simple commands of one shell line as lists of words; a word is a list of (text, quoting)
    pieces, quoting "'" (nothing expands), '"' ($ expands) or "" (unquoted: $ and ~ expand). `#`
    starting a word ends the line; ; && || | & end a command."""
    commands, words, word, quote, i = [], [], None, None, 0
    while i < len(line):
        ch = line[i]
        if quote == "'":
            if ch == "'":
                quote = None
            else:
                word[-1] = (word[-1][0] + ch, "'")
        elif quote == '"':
            if ch == '"':
                quote = None
            elif ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`':
                i += 1
                word[-1] = (word[-1][0] + line[i], "'")
                word.append(("", '"'))
            else:
                word[-1] = (word[-1][0] + ch, '"')
        elif ch in " \t;&|":
            if word is not None:
                words.append(word)
                word = None
            if ch != " " and ch != "\t" and words:
                commands.append(words)
                words = []
        elif ch == "#" and word is None:
            break
        else:
            word = [] if word is None else word
            if ch in "'\"":
                quote = ch
                word.append(("", ch))
            elif ch == "\\" and i + 1 < len(line):
                i += 1
                word.append((line[i], "'"))
            else:
                word.append((ch, ""))
        i += 1
    if word is not None:
        words.append(word)
    if words:
        commands.append(words)
    return commands


def expand(word, values, home, *, assignment=False):
    """A word's text after bash's tilde and $NAME / ${NAME} expansion (no globbing, no splitting);
    in an assignment a ~ also expands after `=` and `:`."""
    import re

    merged = []
    for text, quoting in word:  # one piece per run of the same quoting
        if merged and merged[-1][1] == quoting:
            merged[-1] = (merged[-1][0] + text, quoting)
        else:
            merged.append((text, quoting))
    out = ""
    for n, (text, quoting) in enumerate(merged):
        if quoting != "'":
            text = re.sub(
                r"\$\{(\w+)\}|\$(\w+)", lambda m: values.get(m.group(1) or m.group(2), ("", False))[0], text
            )
        if quoting == "":
            if n == 0 or (assignment and out.endswith((":", "="))):
                text = re.sub(r"^~(?=/|$|:)", home, text)
            if assignment:
                text = re.sub(r"(?<=[=:])~(?=/|$|:)", home, text)
        out += text
    return out


def read_bashrc(path, home, values=None, aliases=None, depth=0):
    """(aliases {name: command}, variables {name: (value, exported)}) after bash reads `path`, line by
    line, as an interactive shell would: alias/unalias, export/declare -x/NAME=value/unset, and
    `.`/`source` of another file; other commands change nothing here. PATH starts as the inherited
    "<inherited>" (exported)."""
    import re
    from pathlib import Path

    values = {"HOME": (home, True), "PATH": ("<inherited>", True)} if values is None else values
    aliases = {} if aliases is None else aliases
    assign = re.compile(r"^([A-Za-z_]\w*)=")
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        for words in shell_words(line):
            plain = [expand(w, values, home) for w in words]
            while plain and plain[0] in ("if", "then", "else", "elif", "do", "{", "!", "}", "fi", "done"):
                words, plain = words[1:], plain[1:]
            if not plain:
                continue
            verb, args, rest = plain[0], plain[1:], words[1:]
            if verb == "alias":
                for arg in args:
                    if "=" in arg:
                        name, _, value = arg.partition("=")
                        aliases[name] = value
            elif verb == "unalias":
                for name in args:
                    aliases.pop(name, None)
            elif verb in ("export", "declare", "typeset", "readonly") or assign.match(verb):
                exported = verb == "export" or (
                    verb in ("declare", "typeset") and any("x" in a for a in args if a.startswith("-"))
                )
                if assign.match(verb):
                    if any(not assign.match(p) for p in plain):
                        continue  # NAME=value command: only for that command
                    exported, rest = None, words
                for word in rest:
                    text = expand(word, values, home, assignment=True)
                    if text.startswith("-"):
                        continue
                    name, sep, value = text.partition("=")
                    was = values.get(name, (None, False))
                    keep = was[1] if exported is None else (was[1] or exported)
                    values[name] = (value if sep else was[0], keep)
            elif verb == "unset":
                for name in args:
                    values.pop(name, None)
            elif verb in (".", "source") and args and depth < 3:
                other = Path(args[0]) if args[0].startswith("/") else path.parent / args[0]
                if other.is_file() and str(other.resolve()).startswith(home):
                    read_bashrc(other, home, values, aliases, depth + 1)
    return aliases, values


def reward(P):
    home = str(HOME)
    wanted = P["aliases"] + [[P["project_alias"], f"cd ~/Projects/{P['project']}"]]
    memo = {}

    def shell():
        if not memo:
            memo["aliases"], memo["values"] = read_bashrc(HOME / ".bashrc", home)
        return memo["aliases"], memo["values"]

    def same(value, want):
        """The alias's command, words squashed; `cd ~/x`, `cd $HOME/x` and `cd /home/user/x` agree."""
        if value is None:
            return False
        value, want = " ".join(value.split()), " ".join(want.split())
        if want.startswith("cd ") and value.startswith("cd "):
            where = value[3:].strip().strip("\"'").replace("${HOME}", home).replace("$HOME", home)
            return where.replace("~", home, 1).rstrip("/") == want[3:].replace("~", home, 1)
        return value == want

    @precondition(f"~/{P['tool_dir']}/{P['tool']} is still there and executable")
    def tool_kept():
        import os

        tool = HOME / P["tool_dir"] / P["tool"]
        return tool.is_file() and os.access(tool, os.X_OK) and tool.read_text().startswith("#!/bin/sh")

    @precondition("what ~/.bashrc set before (alias ll='ls -alF') still holds")
    def kept():
        return same(shell()[0].get("ll"), "ls -alF")

    @component("every alias asked for is defined with its command in a new shell", 0.4)
    def aliases():
        ok = [same(shell()[0].get(name), value) for name, value in wanted]
        return sum(ok) / len(ok)

    @component(f"{P['var']} is exported as {home}/{P['var_dir']}", 0.3)
    def variable():
        value, exported = shell()[1].get(P["var"], (None, False))
        return exported and value is not None and value.rstrip("/") == f"{home}/{P['var_dir']}"

    @component(
        f"~/{P['tool_dir']} is on PATH (so {P['tool']} runs by name) and the inherited PATH is kept", 0.3
    )
    def path():
        value, exported = shell()[1].get("PATH", ("", False))
        entries = [
            e.replace("~", home, 1).rstrip("/") if e.startswith("~") else e.rstrip("/")
            for e in value.split(":")
        ]
        return exported and f"{home}/{P['tool_dir']}" in entries and "<inherited>" in entries


def demonstrate(P, screen):
    """A terminal is open at the home: append the lines with a quoted heredoc (so $HOME and $PATH stay
    literal in the file), then check them in a fresh interactive shell."""
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    wanted = P["aliases"] + [[P["project_alias"], f"cd ~/Projects/{P['project']}"]]
    lines = ["cat >> ~/.bashrc <<'EOF'", "", "# shortcuts"]
    lines += [f"alias {name}='{value}'" for name, value in wanted]
    lines += [
        f'export {P["var"]}="$HOME/{P["var_dir"]}"',
        f'export PATH="$HOME/{P["tool_dir"]}:$PATH"',
        "EOF",
    ]
    for line in lines:
        yield [{"action": "type", "text": line + "\n"}]
    check = f"bash -ic 'alias; echo ${P['var']}; command -v {P['tool']}'\n"
    yield [{"action": "type", "text": "tail -n 12 ~/.bashrc\n"}, {"action": "type", "text": check}]
    yield [{"action": "wait", "time": 0.5}]
