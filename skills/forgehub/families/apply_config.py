"""ForgeHub -> terminal: apply a pull request's config change to the local file, then comment on and
approve the pull request. Data and wording: apply_config.yaml."""

from skills.forgehub.families._gui import open_pull
from skills.kit.guest import HOME
from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import chromium_on_top, switch_to_chromium
from skills.kit.teach_web import compose, press, settle
from skills.kit.webapp import records, seeded

FILLER = {
    "pool": ["queue = nightly"],
    "http": ["port = 8080", "keepalive = true"],
    "cache": ["backend = redis"],
    "limits": ["burst = 20"],
    "retry": ["backoff_ms = 250"],
}


def _conf(service, section, key, value, rng):
    lines = [f"# {service} service settings", f"[{section}]", f"{key} = {value}", *FILLER[section]]
    lines += ["", "[log]", f"level = {rng.choice(['info', 'warn'])}", f"file = /var/log/{service}.log"]
    return lines


def draw(rng, pools):
    state = seeded("forgehub")
    service, other = rng.sample(pools["services"], 2)
    section, key, olds, news = rng.choice(pools["settings"])
    old, new = rng.choice(olds), rng.choice(news)
    lines = _conf(service, section, key, old, rng)
    at = lines.index(f"{key} = {old}")
    hunk = [f" {line}" for line in lines[:at]] + [f"-{key} = {old}", f"+{key} = {new}"]
    hunk += [f" {line}" for line in lines[at + 1 : at + 3]]
    n = len(hunk) - 1
    diff = "\n".join(
        [
            f"--- a/services/{service}/{service}.conf",
            f"+++ b/services/{service}/{service}.conf",
            f"@@ -1,{n} +1,{n} @@",
            *hunk,
        ]
    )
    title = rng.choice(pools["titles"]).format(service=service, key=key)
    (pr,) = records("forgehub", "pull_requests", 1, rng, state, title=title, repo="r0003", diff=diff)
    pull = state["pull_requests"][pr]
    pull.update(state="open", review="pending", labels=["config"], branch=f"ops/{service}-{key}")
    pull["description"] = f"Changes {key} for the {service} service."
    pull.pop("reviewer", None)
    return {
        "world": {"pull_requests": {pr: pull}},
        "pr": pr,
        "title": title,
        "service": service,
        "key": key,
        "old": old,
        "new": new,
        "path": f"infra-config/services/{service}/{service}.conf",
        "lines": lines,
        "other_path": f"infra-config/services/{other}/{other}.conf",
        "other_lines": _conf(other, section, key, rng.choice(olds), rng),
        "comment": rng.choice(pools["comments"]),
    }


def initial_setup(P):
    hub_write("forgehub", "set", P["world"])
    for rel, lines in ((P["path"], P["lines"]), (P["other_path"], P["other_lines"])):
        path = HOME / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def solve(P, *, mistake=None):
    if mistake != "not_applied":
        text = (HOME / P["path"]).read_text(encoding="utf-8")
        old, new = f"{P['key']} = {P['old']}", f"{P['key']} = {P['new']}"
        (HOME / P["path"]).write_text(text.replace(old, new), encoding="utf-8")
    state = hub_read("forgehub", "state")["stored_state"]
    state["comments"][next_id(state["comments"], "c", 4)] = {
        "pull_request": P["pr"],
        "author": state["current_user"],
        "body": P["comment"],
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_approve":
        state["pull_requests"][P["pr"]]["review"] = "approved"
        state["pull_requests"][P["pr"]]["reviewer"] = state["current_user"]
    hub_write("forgehub", "set_current", state)


def reward(P):
    go = hub_read("forgehub", "go")
    now, before = go["current_state"], go["initial_state"]

    def lines_of(rel):
        path = HOME / rel
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
        squeezed = [" = ".join(part.strip() for part in line.split("=", 1)) for line in text.splitlines()]
        while squeezed and not squeezed[-1].strip():
            squeezed.pop()
        return [line.rstrip() for line in squeezed]

    @precondition("the pull request is the one the task names, open and pending")
    def pull_as_described():
        old = before["pull_requests"].get(P["pr"], {})
        return (
            old.get("title") == P["title"] and old.get("state") == "open" and old.get("review") == "pending"
        )

    @precondition("the other service's file, the other pull requests and the comments are untouched")
    def others_intact():
        return (
            lines_of(P["other_path"]) == P["other_lines"]
            and unchanged_except(go, "pull_requests", ids=[P["pr"]])
            and unchanged_except(go, "comments")
            and now["pull_requests"][P["pr"]].get("state") == "open"
        )

    @component("the local file carries the pull request's change and nothing else", 0.5)
    def applied():
        expected = [
            f"{P['key']} = {P['new']}" if line == f"{P['key']} = {P['old']}" else line for line in P["lines"]
        ]
        return lines_of(P["path"]) == expected

    @component("the pull request has your review comment", 0.25)
    def commented():
        new = [now["comments"][c] for c in added_ids(go, "comments")]
        return any(c["pull_request"] == P["pr"] and mentions(c["body"], P["comment"]) for c in new)

    @component("the pull request is approved by you", 0.25)
    def approved():
        pull = now["pull_requests"][P["pr"]]
        return pull.get("review") == "approved" and pull.get("reviewer") == now["current_user"]


def demonstrate(P, screen):
    """The terminal is on top: rewrite the setting with sed and show the file (the shell's title says
    when it ran); then alt+tab to ForgeHub, open the pull request, comment and approve."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    screen.wait_until(lambda: screen.has_window("ForgeHub - Chromium"), what="ForgeHub in the browser")
    # xterm has no accessibility tree: the terminal is on top exactly when Chromium is not.
    if chromium_on_top(screen):
        yield [{"action": "key", "keys": ["alt", "tab"]}]
        screen.wait_until(
            lambda: not chromium_on_top(screen), timeout_s=20, what="the terminal to come to the front"
        )
    done = "Terminal - applied"
    old, new = f"{P['key']} = {P['old']}", f"{P['key']} = {P['new']}"
    path = "~/" + shlex.quote(P["path"])
    command = f"sed -i 's/^{old}$/{new}/' {path} && cat {path} && printf '\\033]0;{done}\\007'\n"
    yield [{"action": "type", "text": command}]
    screen.wait_until(lambda: screen.has_window(done), timeout_s=20, what="the file to be changed")
    yield from switch_to_chromium(screen)
    yield from open_pull(screen, P["title"])
    yield from compose(screen, "review comment", P["comment"])
    yield from press(screen, "Approve")
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "push-button" and e.name == "Approve"),
        timeout_s=10,
        what="the approval to be saved",
    )
    yield settle()
