"""Files: fix permissions in a project folder. Data and wording: permissions.yaml. Modes are read with os.stat;
content hashes prove no file was replaced."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    private_name, private_files = rng.choice(pools["private"])
    scripts = [make_file(rng, n, high=4000) for n in rng.sample(pools["scripts"], rng.randint(2, 4))]
    others = [make_file(rng, n, high=6000) for n in rng.sample(pools["others"], rng.randint(2, 3))]
    locked = make_file(rng, rng.choice(pools["locked"]), high=8000) if rng.random() < 0.5 else None
    weights = {"scripts": 0.4, "private": 0.3, "locked": 0.3} if locked else {"scripts": 0.5, "private": 0.5}
    root = f"Projects/{rng.choice(pools['tools'])}"
    private = {"name": private_name, "files": [make_file(rng, n, high=2000) for n in private_files]}
    return dict(root=root, scripts=scripts, others=others, private=private, locked=locked, weights=weights)


def initial_setup(P):
    import os

    root = HOME / P["root"]
    private = root / P["private"]["name"]
    write_files(root, P["scripts"] + P["others"] + ([P["locked"]] if P["locked"] else []), mode=0o644)
    write_files(private, P["private"]["files"], mode=0o644)
    os.chmod(private, 0o755)


def solve(P, *, mistake=None):
    import os

    root = HOME / P["root"]
    for spec in P["scripts"]:
        os.chmod(root / spec["name"], 0o777 if mistake == "world_writable" else 0o755)
    os.chmod(root / P["private"]["name"], 0o750 if mistake == "group_readable" else 0o700)
    if P["locked"]:
        os.chmod(root / P["locked"]["name"], 0o444)


def reward(P):
    import os
    import stat

    root = HOME / P["root"]
    w = P["weights"]

    def mode(path):
        return stat.S_IMODE(os.stat(path, follow_symlinks=False).st_mode)

    def intact(folder, spec):
        return not (folder / spec["name"]).is_symlink() and same_bytes(folder / spec["name"], spec["sha256"])

    @precondition("other project files are unchanged and not made executable")
    def others_kept():
        return all(intact(root, spec) and mode(root / spec["name"]) & 0o111 == 0 for spec in P["others"])

    @component("every .sh script is rwxr-xr-x (755) with its content unchanged", w["scripts"])
    def scripts_executable():
        ok = [intact(root, s) and mode(root / s["name"]) == 0o755 for s in P["scripts"]]
        return sum(ok) / len(ok)

    @component(f"{P['private']['name']}/ is private to its owner (700) and keeps its files", w["private"])
    def folder_private():
        private = root / P["private"]["name"]
        files_ok = all(intact(private, spec) for spec in P["private"]["files"])
        return private.is_dir() and not private.is_symlink() and mode(private) == 0o700 and files_ok

    if P["locked"]:

        @component(f"{P['locked']['name']} is read-only for everyone (444)", w["locked"])
        def read_only():
            return intact(root, P["locked"]) and mode(root / P["locked"]["name"]) == 0o444


def demonstrate(P, screen):
    """A terminal is open at the home: cd into the project, chmod the scripts by glob, the private
    folder (and the file to lock), then list the modes to check them."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['root'])} && ls -la\n"}]
    yield [{"action": "type", "text": "chmod 755 *.sh\n"}]
    yield [{"action": "type", "text": f"chmod 700 {shlex.quote(P['private']['name'])}\n"}]
    if P["locked"]:
        yield [{"action": "type", "text": f"chmod 444 {shlex.quote(P['locked']['name'])}\n"}]
    yield [{"action": "type", "text": "ls -la\n"}, {"action": "wait", "time": 0.5}]
