"""Files: delete duplicate downloads, keeping the copy with the original name.

Duplicates are identical bytes under names like "report (1).pdf" or "Copy of report.pdf". Some files
look like duplicates by name (and even size) but differ in content: deleting them fails a
precondition, so name-based or size-based cleanup is caught.
"""

from __future__ import annotations

import random

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

STEMS = [("report", "pdf"), ("boarding_pass", "pdf"), ("invoice_4471", "pdf"), ("photo", "jpg"),
         ("setup", "zip"), ("syllabus", "docx"), ("bank_export", "csv"), ("floor_plan", "png"),
         ("slides_final", "pptx"), ("dataset", "csv"), ("contract_signed", "pdf"), ("avatar", "png"),
         ("recipe", "txt"), ("manual", "pdf"), ("budget", "xlsx")]  # fmt: skip
COPY_STYLES = ["{stem} (1).{ext}", "{stem} (2).{ext}", "{stem}(1).{ext}", "Copy of {stem}.{ext}",
               "{stem} - Copy.{ext}", "{stem}_copy.{ext}"]  # fmt: skip
FOLDERS = ["Downloads", "Downloads", "Documents/Inbox", "Desktop/Transfer"]


def initial_setup(P):
    import shutil

    folder = HOME / P["folder"]
    write_files(folder, [g["keep"] for g in P["groups"]] + P["uniques"])
    for group in P["groups"]:
        for copy in group["copies"]:
            shutil.copyfile(folder / group["keep"]["name"], folder / copy)


def golden_patch(P):
    folder = HOME / P["folder"]
    for group in P["groups"]:
        for copy in group["copies"]:
            (folder / copy).unlink()


def near_miss(P):
    # Keeps the newest-looking copy of each: one duplicate survives, but under its "(1)"/"copy" name.
    folder = HOME / P["folder"]
    for group in P["groups"]:
        (folder / group["keep"]["name"]).unlink()
        for copy in group["copies"][1:]:
            (folder / copy).unlink()


def reward(P):
    folder = HOME / P["folder"]
    cache = {}

    def digests():
        """sha256 -> names of the files in the folder that hold it."""
        if "map" not in cache:
            table = {}
            for path in folder.iterdir():
                if path.is_file() and not path.is_symlink():
                    table.setdefault(sha256_of(path), []).append(path.name)
            cache["map"] = table
        return cache["map"]

    @precondition("distinct files (including look-alikes with different content) are all kept")
    def uniques_kept():
        return all(u["name"] in digests().get(u["sha256"], []) for u in P["uniques"])

    @component("each duplicated file is left exactly once", 0.6)
    def one_copy():
        return sum(len(digests().get(g["keep"]["sha256"], [])) == 1 for g in P["groups"]) / len(P["groups"])

    @component("the copy kept is the one with the original name", 0.4)
    def original_name():
        return sum(digests().get(g["keep"]["sha256"], []) == [g["keep"]["name"]]
                   for g in P["groups"]) / len(P["groups"])  # fmt: skip


class Dedupe(Family):
    id = "files.dedupe"
    apps = ("files",)
    difficulty = Difficulty.MEDIUM
    leaves = ("files/search/find_duplicates", "files/delete/delete_file")
    domains = (Domain.OFFICE_ADMIN, Domain.EDUCATION, Domain.BUSINESS_FINANCE, Domain.ARTS_MEDIA)
    scenarios = (Scenario.PERSONAL, Scenario.COMMERCIAL)
    helpers = (fake_content, sha256_of, write_files)
    templates = {
        Wording.IMPERATIVE: "Remove the duplicate files in ~/{folder}: where several files have identical "
        "content, keep only the one with the original name (without a suffix like ' (1)' or 'Copy of') and "
        "delete the others. Files whose content differs must all be kept, even if their names look alike.",
        Wording.REQUEST: "Could you clean up ~/{folder}? I downloaded some things more than once. For every set "
        "of byte-identical files keep just the original-named one and delete the extra copies, but don't "
        "delete anything that is actually different.",
        Wording.CONTEXTUAL: "As {persona}, my ~/{folder} folder has piled up repeated downloads such as "
        "{example}. Delete the true duplicates (same content) and keep one file each, the one with the plain "
        "original name. A file that only looks like a copy but has different content stays.",
        Wording.GOAL: "Goal: ~/{folder} holds each distinct file content exactly once, under its original "
        "name (no ' (1)', '(2)', 'Copy of', ' - Copy' or '_copy' variants of identical files); no file with "
        "unique content is deleted.",
        Wording.PROBLEM_FIX: "~/{folder} is cluttered with duplicate copies like {example}. Fix it: delete "
        "every file that is an exact duplicate of another, keeping the original-named file of each set, and "
        "keep every file whose content is different.",
    }

    def draw(self, rng: random.Random) -> dict:
        picks = rng.sample(STEMS, rng.randint(5, 8))
        n_groups = rng.randint(2, 4)
        groups, uniques = [], []
        for i, (stem, ext) in enumerate(picks):
            original = make_file(rng, f"{stem}.{ext}", high=30_000)
            if i < n_groups:
                styles = rng.sample(COPY_STYLES, rng.randint(1, 2))
                groups.append({"keep": original, "copies": [s.format(stem=stem, ext=ext) for s in styles]})
            else:
                uniques.append(original)
        # a look-alike: named like a copy, same size as the original, different bytes
        stem, ext = picks[-1]
        twin = make_file(rng, rng.choice(COPY_STYLES).format(stem=stem, ext=ext),
                         low=uniques[-1]["size"], high=uniques[-1]["size"])  # fmt: skip
        uniques.append(twin)
        return {"folder": rng.choice(FOLDERS), "groups": groups, "uniques": uniques}

    def words(self, P: dict) -> dict[str, str]:
        group = P["groups"][0]
        return {"folder": P["folder"], "example": f"'{group['keep']['name']}' and '{group['copies'][0]}'"}

    def context(self, P: dict) -> str:
        sets = {g["keep"]["name"]: g["copies"] for g in P["groups"]}
        return (
            f"~/{P['folder']} holds duplicate sets (original -> identical copies) {sets} and distinct files "
            f"{[u['name'] for u in P['uniques']]} (the last is a same-size look-alike of "
            f"{P['uniques'][-2]['name']} with different bytes). Expected: copies deleted, originals and distinct "
            f"files kept."
        )
