"""Files: add Host shortcuts to ~/.ssh/config and make it private. Data and wording: ssh_config.yaml.

The reward resolves each host the way ssh does (`ssh -G`, without running it): every `Host` block
whose patterns match the name applies, in file order, and the first value of each keyword wins;
keywords are case-insensitive and `Key value` or `Key=value` both work. So a block added after a
`Host *` that already sets Port would not take effect, and a typo'd name is simply not matched."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    picked = rng.sample(pools["servers"], rng.randint(2, 3))
    old_alias, old_host, old_user = picked[0]
    keys = rng.sample(pools["keys"], len(picked) - 1)
    hosts = [
        {"alias": a, "hostname": h, "user": u, "port": rng.choice(pools["ports"]), "key": k}
        for (a, h, u), k in zip(picked[1:], keys, strict=True)
    ]
    return dict(old={"alias": old_alias, "hostname": old_host, "user": old_user}, hosts=hosts)


def initial_setup(P):
    import os

    ssh = HOME / ".ssh"
    ssh.mkdir(parents=True, exist_ok=True)
    os.chmod(ssh, 0o700)
    for host in P["hosts"]:
        for suffix, mode in (("", 0o600), (".pub", 0o644)):
            key = ssh / f"{host['key']}{suffix}"
            kind = "PUBLIC" if suffix else "PRIVATE"
            key.write_text(f"-----BEGIN OPENSSH {kind} KEY-----\nmade-up {host['key']}\n-----END-----\n")
            os.chmod(key, mode)
    old = P["old"]
    config = ssh / "config"
    config.write_text(
        f"# personal shortcuts\nHost {old['alias']}\n    HostName {old['hostname']}\n    User {old['user']}\n",
        encoding="utf-8",
    )
    os.chmod(config, 0o664)


def solve(P, *, mistake=None):
    import os

    config = HOME / ".ssh" / "config"
    blocks = []
    for n, h in enumerate(P["hosts"]):
        lines = [f"Host {h['alias']}", f"    HostName {h['hostname']}", f"    User {h['user']}"]
        if not (mistake == "port_missing" and n == len(P["hosts"]) - 1):
            lines.append(f"    Port {h['port']}")
        lines.append(f"    IdentityFile ~/.ssh/{h['key']}")
        blocks.append("\n".join(lines))
    with open(config, "a", encoding="utf-8") as out:
        out.write("\n" + "\n\n".join(blocks) + "\n")
    if mistake != "mode_left":
        os.chmod(config, 0o600)


def ssh_resolve(path, name, home):
    """{keyword: value} that ssh would use for `ssh name` from this config file alone: matching Host
    blocks in order (patterns with * ? and !negation), first value wins; lines before the first
    Host apply to all; Match blocks are skipped; ~ in IdentityFile expands to home."""
    import fnmatch
    import re

    found, active = {}, True
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = re.match(r"(\w+)\s*(?:=\s*|\s+)(.*)$", line)
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip().strip('"')
        if key == "host":
            patterns = value.split()
            negated = any(p.startswith("!") and fnmatch.fnmatch(name, p[1:]) for p in patterns)
            active = not negated and any(not p.startswith("!") and fnmatch.fnmatch(name, p) for p in patterns)
            continue
        if key == "match":
            active = False
            continue
        if active and key not in found:
            if key == "identityfile" and value.startswith("~"):
                value = home + value[1:]
            found[key] = value
    return found


def reward(P):
    import os
    import stat

    config = HOME / ".ssh" / "config"
    home = str(HOME)
    share = 0.7 / len(P["hosts"])

    @precondition(f"the existing {P['old']['alias']} entry still resolves as before")
    def old_kept():
        got = ssh_resolve(config, P["old"]["alias"], home)
        old = P["old"]
        return got.get("hostname") == old["hostname"] and got.get("user") == old["user"] and "port" not in got

    @precondition("the keys in ~/.ssh are still there, unchanged")
    def keys_kept():
        for host in P["hosts"]:
            for suffix in ("", ".pub"):
                kind = "PUBLIC" if suffix else "PRIVATE"
                want = f"-----BEGIN OPENSSH {kind} KEY-----\nmade-up {host['key']}\n-----END-----\n"
                key = HOME / ".ssh" / f"{host['key']}{suffix}"
                if key.is_symlink() or key.read_text(errors="replace") != want:
                    return False
        return True

    for h in P["hosts"]:

        @component(
            f"ssh {h['alias']} goes to {h['user']}@{h['hostname']}:{h['port']} with ~/.ssh/{h['key']}", share
        )
        def host(h=h):
            got = ssh_resolve(config, h["alias"], home)
            checks = [
                got.get("hostname", "").lower() == h["hostname"],
                got.get("user") == h["user"],
                got.get("port") == str(h["port"]),
                got.get("identityfile", "").rstrip("/") == f"{home}/.ssh/{h['key']}",
            ]
            return sum(checks) / len(checks)

    @component("~/.ssh/config is private to its owner (600)", 0.3)
    def private():
        return (
            stat.S_IMODE(os.stat(config, follow_symlinks=False).st_mode) == 0o600 and not config.is_symlink()
        )


def demonstrate(P, screen):
    """A terminal is open at the home: append the Host blocks with a quoted heredoc, chmod 600, and
    show the file and its mode."""
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    lines = ["cat >> ~/.ssh/config <<'EOF'"]
    for h in P["hosts"]:
        lines += ["", f"Host {h['alias']}", f"    HostName {h['hostname']}", f"    User {h['user']}"]
        lines += [f"    Port {h['port']}", f"    IdentityFile ~/.ssh/{h['key']}"]
    lines.append("EOF")
    for line in lines:
        yield [{"action": "type", "text": line + "\n"}]
    yield [{"action": "type", "text": "chmod 600 ~/.ssh/config\n"}]
    yield [
        {"action": "type", "text": "ls -l ~/.ssh/config && cat ~/.ssh/config\n"},
        {"action": "wait", "time": 0.5},
    ]
