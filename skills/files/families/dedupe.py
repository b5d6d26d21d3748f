"""Files: delete duplicate downloads, keeping the original name. Data and wording: dedupe.yaml. A look-alike
by name and size but not content must survive, so name- or size-based cleanup fails a precondition."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import sha256_of, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    picks = rng.sample(pools["stems"], rng.randint(5, 8))
    n_groups = rng.randint(2, 4)
    groups, uniques = [], []
    for i, (stem, ext) in enumerate(picks):
        original = make_file(rng, f"{stem}.{ext}", high=30_000)
        if i < n_groups:
            styles = rng.sample(pools["copy_styles"], rng.randint(1, 2))
            groups.append({"keep": original, "copies": [s.format(stem=stem, ext=ext) for s in styles]})
        else:
            uniques.append(original)
    # a look-alike: named like a copy, same size as the original, different bytes
    size = uniques[-1]["size"]
    twin = rng.choice(pools["copy_styles"]).format(stem=stem, ext=ext)
    uniques.append(make_file(rng, twin, low=size, high=size))
    return {"folder": rng.choice(pools["folders"]), "groups": groups, "uniques": uniques}


def initial_setup(P):
    import shutil

    folder = HOME / P["folder"]
    write_files(folder, [g["keep"] for g in P["groups"]] + P["uniques"])
    for group in P["groups"]:
        for copy in group["copies"]:
            shutil.copyfile(folder / group["keep"]["name"], folder / copy)


def solve(P, *, mistake=None):
    for group in P["groups"]:
        names = [group["keep"]["name"], *group["copies"][1:]] if mistake == "keeps_copy" else group["copies"]
        for name in names:
            (HOME / P["folder"] / name).unlink()


def reward(P):
    import functools

    folder = HOME / P["folder"]
    n = len(P["groups"])

    @functools.cache
    def digests():
        """sha256 -> names of the files in the folder that hold it."""
        table = {}
        for path in folder.iterdir():
            if path.is_file() and not path.is_symlink():
                table.setdefault(sha256_of(path), []).append(path.name)
        return table

    @precondition("distinct files (including look-alikes with different content) are all kept")
    def uniques_kept():
        return all(u["name"] in digests().get(u["sha256"], []) for u in P["uniques"])

    @component("each duplicated file is left exactly once", 0.6)
    def one_copy():
        return sum(len(digests().get(g["keep"]["sha256"], [])) == 1 for g in P["groups"]) / n

    @component("the copy kept is the one with the original name", 0.4)
    def original_name():
        return sum(digests().get(g["keep"]["sha256"], []) == [g["keep"]["name"]] for g in P["groups"]) / n


def demonstrate(P, screen):
    """A terminal is open at the home: cd into the folder, list it with checksums sorted (identical
    content lines up), delete the copies of each set by name, then list the checksums again."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['folder'])} && sha256sum -- * | sort\n"}]
    for group in P["groups"]:
        names = " ".join(shlex.quote(name) for name in group["copies"])
        yield [{"action": "type", "text": f"rm -v -- {names}\n"}]
    yield [{"action": "type", "text": "sha256sum -- * | sort\n"}, {"action": "wait", "time": 0.5}]
