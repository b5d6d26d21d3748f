"""Files: zip the files modified before a cutoff, delete the originals. Data and wording: archive_old.yaml.
Only modification times tell old from new; some names suggest the opposite (a recent summary_2021.txt)."""

from datetime import UTC, datetime, timedelta

from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    folder, tag = rng.choice(pools["folders"])
    cutoff = datetime.fromisoformat(rng.choice(pools["cutoffs"]))
    names = rng.sample(pools["stems"], rng.randint(7, 11))
    n_old = rng.randint(3, len(names) - 3)
    old, recent = [], []
    for i, stem in enumerate(names):
        is_old = i < n_old
        # days kept well away from the cutoff so no time zone moves a file across it
        day = cutoff + timedelta(days=-rng.randint(20, 700) if is_old else rng.randint(20, 400))
        year = day.year + (1 if is_old else -1) if i in (0, n_old) else day.year  # one misleading name each
        spec = make_file(rng, f"{stem}_{year}.{rng.choice(pools['exts'])}")
        mtime = int(day.replace(hour=12, tzinfo=UTC).timestamp())
        spec.update(mtime=mtime, date=day.date().isoformat(), decoy=i in (0, n_old))
        (old if is_old else recent).append(spec)
    zip_name = f"{tag}_before_{cutoff.year}{'' if cutoff.month == 1 else '_' + cutoff.strftime('%m')}.zip"
    zip_path = rng.choice([f"{folder}/{zip_name}", f"Archive/{zip_name}"])
    return dict(folder=folder, zip=zip_path, cutoff=cutoff.date().isoformat(), old=old, recent=recent)


def initial_setup(P):
    write_files(HOME / P["folder"], P["old"] + P["recent"])  # with their modification times


def solve(P, *, mistake=None):
    import os
    import zipfile

    folder = HOME / P["folder"]
    (HOME / P["zip"]).parent.mkdir(parents=True, exist_ok=True)
    extra = [r for r in P["recent"] if r["decoy"]] if mistake == "by_name" else []
    with zipfile.ZipFile(HOME / P["zip"], "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for spec in P["old"] + extra:
            zf.write(folder / spec["name"], arcname=spec["name"])
    for spec in P["old"] if mistake != "kept_originals" else []:
        os.remove(folder / spec["name"])


def reward(P):
    import functools
    import hashlib
    import zipfile

    folder = HOME / P["folder"]
    old = {spec["name"]: spec["sha256"] for spec in P["old"]}

    @functools.cache
    def members():
        """{base name: sha256 of the bytes} of every file member; reading checks each member's CRC."""
        with zipfile.ZipFile(HOME / P["zip"]) as zf:
            files = [i for i in zf.infolist() if not i.is_dir()]
            return {i.filename.rsplit("/", 1)[-1]: hashlib.sha256(zf.read(i)).hexdigest() for i in files}

    def archived(name):
        return members().get(name) == old[name]

    @precondition("files modified after the cutoff are still in the folder, unchanged")
    def recent_kept():
        return all(same_bytes(folder / r["name"], r["sha256"]) for r in P["recent"])

    @component("every old file is in the archive, byte-identical", 0.4)
    def complete():
        return sum(archived(name) for name in old) / len(old)

    @component("the archive holds nothing but the old files", 0.2)
    def only_old():
        names = set(members())
        return bool(names & set(old)) and names <= set(old)

    @component("the archived originals are deleted from the folder", 0.4)
    def originals_removed():
        return sum(archived(name) and not (folder / name).exists() for name in old) / len(old)


def demonstrate(P, screen):
    """A terminal is open at the home: cd into the folder, list it by modification time (the dates,
    not the names, say what is old), zip the old files with Python's zipfile (no `zip` program on the
    desktop), check the archive's listing, then delete the originals."""
    import posixpath
    import shlex

    names = " ".join(shlex.quote(spec["name"]) for spec in P["old"])
    archive = "~/" + shlex.quote(P["zip"])
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"cd ~/{shlex.quote(P['folder'])} && ls -lt --time-style=long-iso\n"}]
    yield [{"action": "type", "text": f"mkdir -p ~/{shlex.quote(posixpath.dirname(P['zip']))}\n"}]
    yield [
        {"action": "type", "text": f"python3 -m zipfile -c {archive} {names}\n"},
        {"action": "wait", "time": 1.0},
    ]
    yield [{"action": "type", "text": f"python3 -m zipfile -l {archive}\n"}, {"action": "wait", "time": 1.0}]
    yield [{"action": "type", "text": f"rm -v -- {names}\n"}]
    yield [{"action": "type", "text": "ls -lt --time-style=long-iso\n"}, {"action": "wait", "time": 0.5}]
