"""Files: make the shell scripts in ~/bin executable. Data and wording: bin_scripts.yaml.

The easiest family of the catalogue on purpose: one command in the terminal solves it whatever the
draw (`chmod 755 ~/bin/*.sh`), while each seed has its own scripts, bystanders and contents, and
each script earns its own share of credit. It is what the training demonstration learns on
(docs/training.md: "It learns")."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    names = rng.sample(pools["scripts"], rng.randint(3, 5))
    scripts = [make_file(rng, n, high=3000) for n in names[:-1]]
    # a script that is executable already: it must stay so (a precondition, never credit)
    ready = make_file(rng, names[-1], high=3000) if rng.random() < 0.5 else None
    if ready is None:
        scripts.append(make_file(rng, names[-1], high=3000))
    others = [make_file(rng, n, high=4000) for n in rng.sample(pools["others"], rng.randint(1, 3))]
    return dict(scripts=scripts, ready=ready, others=others)


def initial_setup(P):
    import os

    folder = HOME / "bin"
    write_files(folder, P["scripts"] + P["others"], mode=0o644)
    if P["ready"]:
        write_files(folder, [P["ready"]], mode=0o755)
    os.chmod(folder, 0o755)


def solve(P, *, mistake=None):
    import os

    scripts = P["scripts"]
    if mistake == "first_only":
        scripts = scripts[:1]
    elif mistake == "last_missed":
        scripts = scripts[:-1]
    for spec in scripts:
        os.chmod(HOME / "bin" / spec["name"], 0o755)


def reward(P):
    import os
    import stat

    folder = HOME / "bin"

    def mode(spec):
        return stat.S_IMODE(os.stat(folder / spec["name"], follow_symlinks=False).st_mode)

    def intact(spec):
        return not (folder / spec["name"]).is_symlink() and same_bytes(folder / spec["name"], spec["sha256"])

    @precondition("the other files in ~/bin are unchanged and not executable")
    def others_kept():
        return all(intact(spec) and mode(spec) & 0o111 == 0 for spec in P["others"])

    if P["ready"]:

        @precondition(f"{P['ready']['name']} stays executable (755) and unchanged")
        def ready_kept():
            return intact(P["ready"]) and mode(P["ready"]) == 0o755

    share = 1 / len(P["scripts"])
    for spec in P["scripts"]:

        @component(f"{spec['name']} is rwxr-xr-x (755) with its content unchanged", share)
        def executable(spec=spec):
            return intact(spec) and mode(spec) == 0o755


def demonstrate(P, screen):
    """A terminal is open at the home: one chmod over the glob, as a person at a shell would."""
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": "chmod 755 ~/bin/*.sh\n"}, {"action": "wait", "time": 0.3}]
