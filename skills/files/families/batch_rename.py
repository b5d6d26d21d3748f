"""Files: batch-rename a folder of files to a naming pattern. Data and wording: batch_rename.yaml."""

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, sha256_of, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    others = [make_file(rng, n, high=3000) for n in rng.sample(pools["bystanders"], rng.randint(1, 2))]
    count = rng.randint(5, 9)
    renames = []

    def add(old, new, wrong):  # stems; the extension is the folder's
        renames.append(
            {"file": make_file(rng, f"{old}.{ext}"), "new": f"{new}.{ext}", "wrong": f"{wrong}.{ext}"}
        )

    if rng.random() < 0.5:
        folder, stem, ext, prefixes = rng.choice(pools["numbered"])
        prefix, width = rng.choice(prefixes), rng.choice([3, 4])
        sep = rng.choice([" ", "_", "-"])
        for n in sorted(rng.sample(range(1, 99), count)):
            add(f"{stem}{sep}{n}", f"{prefix}_{n:0{width}d}", f"{prefix}_{n:0{width - 1}d}")
        mode, source = "number", f"'{stem}{sep}<number>.{ext}'"
        target = f"'{prefix}_<number zero-padded to {width} digits>.{ext}'"
    else:
        folder, stems, ext = rng.choice(pools["dated"])
        seen = set()
        while len(renames) < count:
            stem = rng.choice(stems)
            y, m, d = rng.randint(2021, 2025), rng.randint(1, 12), rng.randint(1, 28)
            if d == m or (stem, y, m, d) in seen:
                continue  # day == month would hide the day/month swap of the near miss
            seen.add((stem, y, m, d))
            add(f"{stem}_{d:02d}-{m:02d}-{y}", f"{y}-{m:02d}-{d:02d}_{stem}", f"{y}-{d:02d}-{m:02d}_{stem}")
        mode, source, target = "date", f"'<name>_DD-MM-YYYY.{ext}'", f"'YYYY-MM-DD_<name>.{ext}'"
    return dict(mode=mode, folder=folder, source=source, target=target, renames=renames, bystanders=others)


def initial_setup(P):
    write_files(HOME / P["folder"], [r["file"] for r in P["renames"]] + P["bystanders"])


def solve(P, *, mistake=None):
    folder = HOME / P["folder"]
    for r in P["renames"]:
        (folder / r["file"]["name"]).rename(folder / (r["wrong"] if mistake == "pattern_slip" else r["new"]))


def reward(P):
    folder = HOME / P["folder"]
    count = len(P["renames"])

    @precondition("files that do not match the pattern keep their names and content")
    def bystanders_kept():
        return all(same_bytes(folder / b["name"], b["sha256"]) for b in P["bystanders"])

    @component("each file carries its new name with its original content", 0.6)
    def renamed():
        return sum(same_bytes(folder / r["new"], r["file"]["sha256"]) for r in P["renames"]) / count

    @component("no file keeps its old name, and none was lost", 0.4)
    def old_names_gone():
        digests = {sha256_of(p) for p in folder.iterdir() if p.is_file()}
        gone = [
            not (folder / r["file"]["name"]).exists() and r["file"]["sha256"] in digests for r in P["renames"]
        ]
        return sum(gone) / count


def demonstrate(P, screen):
    """A terminal is open at the home: cd into the folder, list it, `mv -n` each matching file to its
    new name (quoted: names have spaces; -n never overwrites), then list the result."""
    import shlex

    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['folder'])} && ls -l\n"}]
    for r in P["renames"]:
        old, new = shlex.quote(r["file"]["name"]), shlex.quote(r["new"])
        yield [{"action": "type", "text": f"mv -nv -- {old} {new}\n"}]
    yield [{"action": "type", "text": "ls -l\n"}, {"action": "wait", "time": 0.5}]
