"""Files: batch-rename a folder of files to a naming pattern (zero-padded numbers or ISO dates)."""

from __future__ import annotations

import random

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# numbered sources: (folder, original stem, extension, new prefixes)
NUMBERED = [
    ("Documents/Scans", "scan", "pdf", ["invoice", "receipt", "contract"]),
    ("Pictures/Screenshots", "Screenshot", "png", ["bugreport", "ui_review"]),
    ("Pictures/Notebook", "page", "jpg", ["lab_notes", "sketch"]),
    ("Music/Lecture series", "track", "mp3", ["lecture", "session"]),
    ("Documents/Chapters", "chapter", "docx", ["thesis_ch", "draft_ch"]),
]  # fmt: skip
# dated sources: (folder, stems, extension)
DATED = [
    ("Documents/Minutes", ["minutes", "board-minutes", "standup"], "txt"),
    ("Documents/Timesheets", ["timesheet", "hours"], "xlsx"),
    ("Documents/Statements", ["statement", "bank-statement"], "pdf"),
    ("Pictures/Site visits", ["site", "inspection"], "jpg"),
]  # fmt: skip
BYSTANDERS = ["README.txt", "index.csv", "desktop.ini", "notes.md"]


def initial_setup(P):
    folder = HOME / P["folder"]
    write_files(folder, [r["file"] for r in P["renames"]] + P["bystanders"])


def _rename(P, wrong_pattern):
    folder = HOME / P["folder"]
    for r in P["renames"]:
        new = r["wrong"] if wrong_pattern else r["new"]
        (folder / r["file"]["name"]).rename(folder / new)


def golden_patch(P):
    _rename(P, wrong_pattern=False)


def near_miss(P):
    # Every file is renamed, but with the classic pattern slip (one digit short, or day and month swapped).
    _rename(P, wrong_pattern=True)


def reward(P):
    folder = HOME / P["folder"]

    def holds(name, digest):
        path = folder / name
        return path.is_file() and sha256_of(path) == digest

    def surviving_digests():
        return {sha256_of(p) for p in folder.iterdir() if p.is_file()}

    @precondition("files that do not match the pattern keep their names and content")
    def bystanders_kept():
        return all(holds(b["name"], b["sha256"]) for b in P["bystanders"])

    @component("each file carries its new name with its original content", 0.6)
    def renamed():
        return sum(holds(r["new"], r["file"]["sha256"]) for r in P["renames"]) / len(P["renames"])

    @component("no file keeps its old name, and none was lost", 0.4)
    def old_names_gone():
        digests = surviving_digests()
        return sum(not (folder / r["file"]["name"]).exists() and r["file"]["sha256"] in digests
                   for r in P["renames"]) / len(P["renames"])  # fmt: skip


class BatchRename(Family):
    id = "files.batch_rename"
    apps = ("files",)
    difficulty = Difficulty.MEDIUM
    leaves = ("files/organize/batch_rename", "files/organize/rename")
    domains = (Domain.OFFICE_ADMIN, Domain.LEGAL, Domain.EDUCATION, Domain.ARTS_MEDIA, Domain.BUSINESS_FINANCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.EDUCATIONAL)
    helpers = (fake_content, sha256_of, write_files, _rename)
    templates = {
        Wording.IMPERATIVE: "Rename the files in ~/{folder} {rule}. For example, {example}. Leave {bystanders} "
        "untouched.",
        Wording.REQUEST: "Could you rename the files in ~/{folder} to a consistent scheme? {rule_cap}. For "
        "example, {example}. Please don't rename {bystanders}.",
        Wording.CONTEXTUAL: "As {persona}, I need the files in ~/{folder} to sort properly. Rename them {rule} "
        "(e.g. {example}). Rename, don't copy; {bystanders} keep their names.",
        Wording.GOAL: "Goal: every file in ~/{folder} that matches {source} is renamed {rule} (e.g. {example}), "
        "with its content unchanged; {bystanders} keep their names.",
        Wording.PROBLEM_FIX: "The files in ~/{folder} sort in the wrong order because of their names. Fix it by "
        "renaming them {rule}. For instance, {example}. {bystanders} must not be renamed.",
    }

    def draw(self, rng: random.Random) -> dict:
        bystanders = [make_file(rng, n, high=3000) for n in rng.sample(BYSTANDERS, rng.randint(1, 2))]
        count = rng.randint(5, 9)
        if rng.random() < 0.5:
            folder, stem, ext, prefixes = rng.choice(NUMBERED)
            prefix, width = rng.choice(prefixes), rng.choice([3, 4])
            sep = rng.choice([" ", "_", "-"])
            renames = []
            for n in sorted(rng.sample(range(1, 99), count)):
                renames.append({"file": make_file(rng, f"{stem}{sep}{n}.{ext}"),
                                "new": f"{prefix}_{n:0{width}d}.{ext}",
                                "wrong": f"{prefix}_{n:0{width - 1}d}.{ext}"})  # fmt: skip
            return {"mode": "number", "folder": folder, "source": f"'{stem}{sep}<number>.{ext}'",
                    "target": f"'{prefix}_<number zero-padded to {width} digits>.{ext}'",
                    "renames": renames, "bystanders": bystanders}  # fmt: skip
        folder, stems, ext = rng.choice(DATED)
        renames, seen = [], set()
        while len(renames) < count:
            stem = rng.choice(stems)
            year, month, day = rng.randint(2021, 2025), rng.randint(1, 12), rng.randint(1, 28)
            if day == month or (stem, year, month, day) in seen:
                continue  # day == month would hide the day/month swap of the near miss
            seen.add((stem, year, month, day))
            renames.append({"file": make_file(rng, f"{stem}_{day:02d}-{month:02d}-{year}.{ext}"),
                            "new": f"{year}-{month:02d}-{day:02d}_{stem}.{ext}",
                            "wrong": f"{year}-{day:02d}-{month:02d}_{stem}.{ext}"})  # fmt: skip
        return {"mode": "date", "folder": folder, "source": f"'<name>_DD-MM-YYYY.{ext}'",
                "target": f"'YYYY-MM-DD_<name>.{ext}'", "renames": renames, "bystanders": bystanders}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        first = P["renames"][0]
        if P["mode"] == "number":
            rule = f"from {P['source']} to {P['target']}"
        else:
            rule = f"from {P['source']} (day-month-year) to {P['target']} (ISO date first, then the name)"
        return {
            "folder": P["folder"],
            "rule": rule,
            "rule_cap": "Change them " + rule,
            "source": P["source"],
            "example": f"'{first['file']['name']}' becomes '{first['new']}'",
            "bystanders": " and ".join(b["name"] for b in P["bystanders"]),
        }

    def context(self, P: dict) -> str:
        mapping = {r["file"]["name"]: r["new"] for r in P["renames"]}
        return (
            f"~/{P['folder']} holds {len(P['renames'])} files to rename and {[b['name'] for b in P['bystanders']]} "
            f"to leave alone. Expected renames (content byte-identical, old names gone): {mapping}."
        )
