"""Files: make Desktop shortcuts as symbolic links to deep folders. Data and wording: symlinks.yaml."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    links = []
    for target, names, filename in rng.sample(pools["targets"], rng.randint(2, 3)):
        links.append({"target": target, "name": rng.choice(names), "file": make_file(rng, filename)})
    return {"place": rng.choice(pools["places"]), "links": links}


def initial_setup(P):
    for link in P["links"]:
        write_files(HOME / link["target"], [link["file"]])
    (HOME / P["place"]).mkdir(parents=True, exist_ok=True)


def solve(P, *, mistake=None):
    import os
    import shutil

    for i, link in enumerate(P["links"]):
        at = HOME / P["place"] / link["name"]
        if mistake == "copied_last" and i == len(P["links"]) - 1:
            shutil.copytree(HOME / link["target"], at)
        else:
            os.symlink(os.path.relpath(HOME / link["target"], at.parent), at)


def reward(P):
    import os

    @precondition("the target folders still hold their files, unchanged")
    def targets_intact():
        return all(
            same_bytes(HOME / k["target"] / k["file"]["name"], k["file"]["sha256"]) for k in P["links"]
        )

    weight = round(1.0 / len(P["links"]), 4)
    for link in P["links"]:

        @component(f"{P['place']}/{link['name']} is a symbolic link to ~/{link['target']}", weight)
        def linked(link=link):
            at = HOME / P["place"] / link["name"]
            points_right = at.is_symlink() and os.path.realpath(at) == os.path.realpath(HOME / link["target"])
            return points_right and same_bytes(at / link["file"]["name"], link["file"]["sha256"])


def demonstrate(P, screen):
    """A terminal is open at the home: cd into the place for the shortcuts and `ln -s` each target
    folder under its name (quoted: names have spaces), then list the links to check them."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['place'])} && ls -la\n"}]
    for link in P["links"]:
        target, name = shlex.quote(link["target"]), shlex.quote(link["name"])
        yield [{"action": "type", "text": f"ln -s ~/{target} {name}\n"}]
    yield [{"action": "type", "text": "ls -la\n"}, {"action": "wait", "time": 0.5}]
