"""Files: archive every file last modified before a cutoff date into a ZIP and delete the originals.

The old files are told apart by modification time only; some names suggest the opposite (a recent
file called summary_2021.txt), so sorting by name instead of date picks the wrong ones.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

FOLDERS = [("Documents/Reports", "reports"), ("Documents/Invoices", "invoices"), ("Documents/Lab data", "lab"),
           ("Documents/Clients", "clients"), ("Documents/Coursework", "coursework")]  # fmt: skip
STEMS = ["weekly_report", "budget_review", "q_summary", "client_letter", "minutes", "forecast", "audit_notes",
         "results", "inventory_count", "proposal", "timesheet", "survey_export", "plan", "handout", "invoice"]  # fmt: skip
EXTS = ["pdf", "docx", "xlsx", "txt", "csv", "odt"]
CUTOFFS = ["2022-01-01", "2022-07-01", "2023-01-01", "2023-07-01", "2024-01-01"]


def initial_setup(P):
    import os

    folder = HOME / P["folder"]
    write_files(folder, P["old"] + P["recent"])
    for spec in P["old"] + P["recent"]:
        os.utime(folder / spec["name"], (spec["mtime"], spec["mtime"]))


def _archive(P, extra):
    import os
    import zipfile

    folder = HOME / P["folder"]
    archive = HOME / P["zip"]
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for spec in P["old"] + extra:
            zf.write(folder / spec["name"], arcname=spec["name"])
    for spec in P["old"]:
        os.remove(folder / spec["name"])


def golden_patch(P):
    _archive(P, extra=[])


def near_miss(P):
    # Picks by the year in the name: the recent file named like an old one is archived too (a copy,
    # since only the truly old originals are deleted).
    _archive(P, extra=[r for r in P["recent"] if r["decoy"]])


def reward(P):
    import hashlib
    import zipfile

    folder = HOME / P["folder"]
    old = {spec["name"]: spec["sha256"] for spec in P["old"]}
    cache = {}

    def members():
        """{base name: sha256 of the bytes} of every file member; reading checks each member's CRC."""
        if "members" not in cache:
            found = {}
            with zipfile.ZipFile(HOME / P["zip"]) as zf:
                for info in zf.infolist():
                    if not info.is_dir():
                        found[info.filename.rstrip("/").rsplit("/", 1)[-1]] = hashlib.sha256(
                            zf.read(info)).hexdigest()  # fmt: skip
            cache["members"] = found
        return cache["members"]

    def archived(name):
        return members().get(name) == old[name]

    @precondition("files modified after the cutoff are still in the folder, unchanged")
    def recent_kept():
        return all((folder / r["name"]).is_file() and sha256_of(folder / r["name"]) == r["sha256"]
                   for r in P["recent"])  # fmt: skip

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


def _stamp(day: datetime) -> int:
    return int(day.replace(hour=12, tzinfo=UTC).timestamp())


class ArchiveOld(Family):
    id = "files.archive_old"
    apps = ("files",)
    difficulty = Difficulty.HARD
    leaves = ("files/archives/create_zip", "files/search/by_modified_date", "files/delete/delete_file")
    domains = (Domain.OFFICE_ADMIN, Domain.BUSINESS_FINANCE, Domain.LEGAL, Domain.SCIENCE, Domain.EDUCATION)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC, Scenario.PERSONAL)
    helpers = (fake_content, sha256_of, write_files, _archive)
    templates = {
        Wording.IMPERATIVE: "In ~/{folder}, put every file last modified before {cutoff} into a ZIP archive "
        "~/{zip}, then delete those originals. Files modified on or after that date stay in the folder and "
        "out of the archive.",
        Wording.REQUEST: "Could you archive the old files in ~/{folder}? Everything last modified before "
        "{cutoff} should go into ~/{zip} and be removed from the folder; newer files stay where they are and "
        "shouldn't be in the zip.",
        Wording.CONTEXTUAL: "As {persona}, I keep only current files in ~/{folder}. Zip up the files whose "
        "modification date is before {cutoff} into ~/{zip} and delete the originals. Go by the modification "
        "date, not the file names; newer files are left alone.",
        Wording.GOAL: "Goal: ~/{zip} contains exactly the files of ~/{folder} last modified before {cutoff}, "
        "byte-identical, and those originals are gone from the folder; newer files remain, unchanged and "
        "not archived.",
        Wording.PROBLEM_FIX: "~/{folder} is full of outdated files. Fix it by moving every file last modified "
        "before {cutoff} into the ZIP archive ~/{zip} (delete the originals once they are archived). Files "
        "from {cutoff} onwards must stay in the folder and out of the archive.",
    }

    def draw(self, rng: random.Random) -> dict:
        folder, tag = rng.choice(FOLDERS)
        cutoff = datetime.fromisoformat(rng.choice(CUTOFFS))
        names = rng.sample(STEMS, rng.randint(7, 11))
        n_old = rng.randint(3, len(names) - 3)
        old, recent = [], []
        for i, stem in enumerate(names):
            is_old = i < n_old
            # days kept well away from the cutoff so no time zone moves a file across it
            day = cutoff - timedelta(days=rng.randint(20, 700)) if is_old else cutoff + timedelta(days=rng.randint(20, 400))
            year = day.year + (1 if is_old else -1) if i in (0, n_old) else day.year  # one misleading name each
            spec = make_file(rng, f"{stem}_{year}.{rng.choice(EXTS)}")
            spec.update(mtime=_stamp(day), date=day.date().isoformat(), decoy=i in (0, n_old))
            (old if is_old else recent).append(spec)
        zip_name = f"{tag}_before_{cutoff.year}{'' if cutoff.month == 1 else '_' + cutoff.strftime('%m')}.zip"
        zip_path = rng.choice([f"{folder}/{zip_name}", f"Archive/{zip_name}"])
        return {"folder": folder, "zip": zip_path, "cutoff": cutoff.date().isoformat(), "old": old, "recent": recent}

    def words(self, P: dict) -> dict[str, str]:
        cutoff = datetime.fromisoformat(P["cutoff"])
        return {"folder": P["folder"], "zip": P["zip"], "cutoff": f"{cutoff.day} {cutoff:%B %Y}"}

    def context(self, P: dict) -> str:
        return (
            f"~/{P['folder']} holds files with set modification times. Before {P['cutoff']}: "
            f"{[(o['name'], o['date']) for o in P['old']]}; after: {[(r['name'], r['date']) for r in P['recent']]}"
            f" (names with a misleading year: {[s['name'] for s in P['old'] + P['recent'] if s['decoy']]}). "
            f"Expected: ~/{P['zip']} holds exactly the old files (any folder prefix inside the zip), bytes "
            f"identical; the old originals deleted; the recent files untouched."
        )
