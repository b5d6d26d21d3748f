"""Files: sort a cluttered Desktop into category folders (paper appendix E.5, filesystem hierarchy).

Credit per file needs both halves of a move: the file is in its category folder with identical bytes
*and* gone from the Desktop root, so copy-without-delete earns nothing.
"""

from __future__ import annotations

import random

from skills.files.families._fs import fake_content, make_file, sha256_of, write_files
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# category -> (folder names people use, extensions, file stems)
CATEGORIES = {
    "documents": (["Documents", "Docs", "Paperwork"], ["pdf", "docx", "odt", "txt", "md"],
                  ["invoice_march", "lease_agreement", "meeting_minutes", "cover_letter", "tax_return_2023",
                   "project_brief", "warranty", "reading_list"]),
    "images": (["Images", "Pictures", "Photos"], ["png", "jpg", "jpeg", "gif", "webp"],
               ["IMG_2041", "screenshot_login_bug", "team_photo", "logo_draft", "receipt_scan", "diagram_v2",
                "holiday_beach", "whiteboard"]),
    "spreadsheets": (["Spreadsheets", "Sheets", "Tables"], ["xlsx", "ods", "csv"],
                     ["budget_2024", "inventory", "grades_term2", "expenses_q3", "sales_by_region",
                      "timesheet_week14", "survey_results"]),
    "audio": (["Audio", "Music", "Recordings"], ["mp3", "wav", "ogg", "flac"],
              ["voice_memo_0412", "interview_clip", "podcast_intro", "lecture_week3", "ringtone",
               "meeting_recording"]),
    "archives": (["Archives", "Compressed", "Zips"], ["zip", "tar.gz"],
                 ["photos_backup", "project_export", "old_logs", "site_backup", "dataset_v1"]),
    "videos": (["Videos", "Movies", "Clips"], ["mp4"],
               ["demo_walkthrough", "birthday_clip", "screen_recording", "product_teaser"]),
}  # fmt: skip
STAY = ["todo.txt", "README-first.txt", "shopping_list.txt", "notes_today.md", "passwords_hint.txt"]


def initial_setup(P):
    desktop = HOME / P["desktop"]
    write_files(desktop, [f for c in P["categories"] for f in c["files"]] + [P["stay"]])
    for category in P["categories"]:
        if category["existing"]:  # a folder already in use holds a file that must survive
            write_files(desktop / category["folder"], [category["existing"]])


def _sort(P, copy_last):
    import shutil

    desktop = HOME / P["desktop"]
    for i, category in enumerate(P["categories"]):
        folder = desktop / category["folder"]
        folder.mkdir(exist_ok=True)
        for spec in category["files"]:
            move = shutil.copy2 if copy_last and i == len(P["categories"]) - 1 else shutil.move
            move(str(desktop / spec["name"]), str(folder / spec["name"]))


def golden_patch(P):
    _sort(P, copy_last=False)


def near_miss(P):
    # The last category is copied into its folder but the originals stay on the Desktop.
    _sort(P, copy_last=True)


def reward(P):
    desktop = HOME / P["desktop"]

    def moved(spec, folder):
        target = desktop / folder / spec["name"]
        in_target = target.is_file() and sha256_of(target) == spec["sha256"]
        gone_from_root = not (desktop / spec["name"]).exists()
        return in_target and gone_from_root

    @precondition(f"{P['stay']['name']} is still on the Desktop, unchanged")
    def stays():
        path = desktop / P["stay"]["name"]
        return path.is_file() and sha256_of(path) == P["stay"]["sha256"]

    @precondition("files already in the category folders are kept")
    def existing_kept():
        return all(sha256_of(desktop / c["folder"] / c["existing"]["name"]) == c["existing"]["sha256"]
                   for c in P["categories"] if c["existing"])  # fmt: skip

    total = sum(len(c["files"]) for c in P["categories"])
    for category in P["categories"]:

        @component(f"{category['label']} moved into {P['desktop']}/{category['folder']}",
                   round(len(category["files"]) / total, 4))  # fmt: skip
        def sorted_into(category=category):
            return sum(moved(spec, category["folder"]) for spec in category["files"]) / len(category["files"])


class SortDesktop(Family):
    id = "files.sort_desktop"
    apps = ("files",)
    difficulty = Difficulty.HARD
    leaves = ("files/organize/sort_into_folders", "files/organize/move", "files/create/new_folder")
    domains = (Domain.OFFICE_ADMIN, Domain.BUSINESS_FINANCE, Domain.EDUCATION, Domain.ARTS_MEDIA, Domain.SALES)
    scenarios = (Scenario.PERSONAL, Scenario.COMMERCIAL, Scenario.EDUCATIONAL)
    helpers = (fake_content, sha256_of, write_files, _sort)
    templates = {
        Wording.IMPERATIVE: "Organise the files on the Desktop (~/Desktop) by type: move {rules}. Create any "
        "folder that doesn't exist yet. Leave {stay} where it is.",
        Wording.REQUEST: "My Desktop (~/Desktop) is a mess. Could you move {rules}? Make the folders if they're "
        "missing, and please don't touch {stay}.",
        Wording.CONTEXTUAL: "As {persona}, I can never find anything on my Desktop. Sort the loose files in "
        "~/Desktop into folders on the Desktop: {rules}. The files should be moved, not copied. {stay} stays "
        "on the Desktop.",
        Wording.GOAL: "Goal: every loose file on ~/Desktop sits in its category folder on the Desktop ({rules}), "
        "except {stay}, which is still on the Desktop; every file keeps its name and content.",
        Wording.PROBLEM_FIX: "The Desktop (~/Desktop) is cluttered with {count} loose files. Fix it by moving "
        "{rules}, creating folders as needed. {stay} must stay on the Desktop.",
    }

    def draw(self, rng: random.Random) -> dict:
        kinds = rng.sample(sorted(CATEGORIES), rng.randint(3, 4))
        stay_name = rng.choice(STAY)
        categories, used = [], {stay_name.lower()}
        for kind in kinds:
            folders, exts, stems = CATEGORIES[kind]
            files = []
            for stem in rng.sample(stems, rng.randint(2, 4)):
                ext = rng.choice(exts)
                name = f"{stem}.{ext.upper() if rng.random() < 0.15 else ext}"
                if name.lower() not in used:
                    used.add(name.lower())
                    files.append(make_file(rng, name))
            folder = rng.choice(folders)
            existing = make_file(rng, f"{rng.choice(stems)}_old.{exts[0]}") if rng.random() < 0.3 else None
            categories.append({"kind": kind, "label": f"{kind} ({', '.join('.' + e for e in exts)})",
                               "folder": folder, "files": files, "existing": existing})  # fmt: skip
        return {"desktop": "Desktop", "categories": categories, "stay": make_file(rng, stay_name, high=2000)}

    def words(self, P: dict) -> dict[str, str]:
        rules = [f"{c['label']} into ~/Desktop/{c['folder']}" for c in P["categories"]]
        return {
            "rules": "; ".join(rules),
            "stay": P["stay"]["name"],
            "count": str(sum(len(c["files"]) for c in P["categories"]) + 1),
        }

    def context(self, P: dict) -> str:
        lines = [f"~/Desktop/{c['folder']}/ <- {[f['name'] for f in c['files']]}"
                 + (f" (folder exists, holds {c['existing']['name']})" if c["existing"] else " (folder absent)")
                 for c in P["categories"]]  # fmt: skip
        return (
            f"~/Desktop holds loose files (name, size, sha256 in params) and {P['stay']['name']}, which must stay. "
            f"Expected: {'; '.join(lines)}; each file byte-identical in its folder and absent from the Desktop "
            f"root."
        )
