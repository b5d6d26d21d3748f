"""Cross-app (Files -> Calc): inventory the files of a folder into a new spreadsheet: name, type,
exact size in bytes, sorted by name, with a total. The folder has a subfolder whose files must not
be listed. Six independently scored parts; the folder itself must stay untouched."""

from __future__ import annotations

import random

from skills.calc.families._sheetkit import (
    close_to,
    computed_value,
    evaluate_formula,
    find_sheet,
    is_formula,
    open_book,
)
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

FOLDERS = {
    "client_handover": ["contract_signed.pdf", "floor_plan.png", "budget_final.xlsx", "meeting_notes.txt",
                        "site_photo_east.jpg", "site_photo_west.jpg", "warranty_terms.pdf", "contacts.csv",
                        "snag_list.docx", "keys_receipt.pdf"],
    "grant_application": ["cover_letter.docx", "budget_justification.xlsx", "cv_principal.pdf", "figures.zip",
                          "letters_of_support.pdf", "data_management_plan.docx", "abstract.txt",
                          "timeline.png", "references.bib"],
    "course_materials": ["syllabus.pdf", "lecture_intro.pptx", "reading_list.docx", "grades_template.xlsx",
                         "lab_safety.pdf", "quiz_answers.txt", "diagram_cell.png", "dataset_small.csv"],
    "band_tour": ["setlist.txt", "rider_technical.pdf", "poster_final.png", "venue_contacts.csv",
                  "merch_orders.xlsx", "travel_plan.docx", "soundcheck.mp3", "press_photo.jpg"],
    "tax_return": ["payslips.pdf", "bank_statement_march.pdf", "receipts_scan.jpg", "donations.csv",
                   "mileage_log.xlsx", "notes_for_accountant.txt", "pension_letter.pdf", "invoice_export.csv"],
}  # fmt: skip
HEADERS = ["File name", "Type", "Size (bytes)"]


def initial_setup(P):
    folder = HOME / P["folder"]
    (folder / P["subfolder"]).mkdir(parents=True, exist_ok=True)
    for name, size in list(P["files"].items()) + [(f"{P['subfolder']}/{n}", s) for n, s in P["nested"].items()]:
        seed = sum(map(ord, name))
        body = bytes((seed + i * 7) % 251 for i in range(size))  # content of exactly `size` bytes
        (folder / name).write_bytes(body)


def write_inventory(P, unit):
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Inventory"
    ws.append(["File name", "Type", "Size (bytes)"])
    names = sorted(P["files"], key=str.casefold)
    for name in names:
        size = P["files"][name]
        ws.append([name, name.rsplit(".", 1)[1].lower(), size if unit == "bytes" else round(size / 1024, 1)])
    ws.append(["Total", None, f"=SUM(C2:C{len(names) + 1})"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def golden_patch(P):
    write_inventory(P, "bytes")


def near_miss(P):
    # Sizes copied from the file manager's list view, which shows kB, not the exact byte counts.
    write_inventory(P, "kib")


def reward(P):
    import re

    path = HOME / P["xlsx"]
    expected = {name.casefold(): (name, size) for name, size in P["files"].items()}
    state = {}

    def book():
        if "book" not in state:
            state["book"] = open_book(path)
        return state["book"]

    def sheet():
        return book()["f"].worksheets[0]

    def listed():
        """(row, name as typed) for every non-empty A cell below the header, until the Total row."""
        ws = sheet()
        rows = []
        for row in range(2, ws.max_row + 1):
            value = ws.cell(row=row, column=1).value
            text = str(value).strip() if value is not None else ""
            if text.casefold() == "total":
                break
            if text:
                rows.append((row, text))
        return rows

    @precondition("the folder's files are all still there, unchanged in size")
    def folder_intact():
        folder = HOME / P["folder"]
        return all((folder / n).is_file() and (folder / n).stat().st_size == s for n, s in P["files"].items())

    @component("row 1 holds the headers File name, Type, Size (bytes)", 0.1)
    def headers():
        cells = [str(sheet().cell(row=1, column=c).value or "").strip().casefold() for c in (1, 2, 3)]
        return sum(a == b for a, b in zip(cells, ["file name", "type", "size (bytes)"], strict=True)) / 3

    @component("exactly the folder's top-level files are listed", 0.3)
    def files_listed():
        names = [text.casefold() for _, text in listed()]
        hits = len(set(names) & set(expected))
        return hits / max(len(names), len(expected))

    @component("each file's size is its exact byte count", 0.25)
    def sizes():
        ws = sheet()
        hits = sum(close_to(ws.cell(row=row, column=3).value, expected[text.casefold()][1], tol=0)
                   for row, text in listed() if text.casefold() in expected)  # fmt: skip
        return hits / len(expected)

    @component("each file's type is its lower-case extension", 0.1)
    def types():
        ws = sheet()
        hits = 0
        for row, text in listed():
            if text.casefold() in expected:
                want = expected[text.casefold()][0].rsplit(".", 1)[1].lower()
                hits += str(ws.cell(row=row, column=2).value or "").strip().lstrip(".").lower() == want
        return hits / len(expected)

    @component("the rows are sorted by file name A to Z", 0.1)
    def sorted_by_name():
        names = [text.casefold() for _, text in listed() if text.casefold() in expected]
        # Calc's collator may rank "_" and "." differently from code points: accept either reading
        loose = [re.sub(r"[^0-9a-z]", "", n) for n in names]
        return len(names) >= 2 and (names == sorted(names) or loose == sorted(loose))

    @component("a Total row right under the list sums the sizes with a formula", 0.15)
    def total_row():
        ws = sheet()
        rows = listed()
        total_at = (rows[-1][0] if rows else 1) + 1
        if str(ws.cell(row=total_at, column=1).value or "").strip().casefold() != "total":
            return False
        if not is_formula(ws.cell(row=total_at, column=3).value):
            return False
        value = computed_value(book(), ws.title, total_at, 3)
        shown = [computed_value(book(), ws.title, row, 3) for row, _ in rows]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in shown)
        return close_to(value, sum(P["files"].values())) or (numeric and close_to(value, sum(shown)))


class FolderInventory(Family):
    id = "calc.folder_inventory"
    apps = ("calc", "files")
    platform = Platform.CROSS
    difficulty = Difficulty.HARD
    leaves = ("calc/files/exchange/inventory_files", "calc/editing/cells/enter_values",
              "calc/data/sort/single_key_sort", "calc/formulas/arithmetic/sum_range")  # fmt: skip
    domains = (Domain.OFFICE_ADMIN, Domain.LEGAL, Domain.EDUCATION, Domain.ARTS_MEDIA, Domain.BUSINESS_FINANCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.EDUCATIONAL)
    helpers = (open_book, find_sheet, is_formula, close_to, computed_value, evaluate_formula, write_inventory)
    templates = {
        Wording.IMPERATIVE: "Create the spreadsheet {xlsx} listing every file directly inside {folder} "
        "(not the files in its {subfolder} subfolder). Row 1: File name, Type, Size (bytes). One row per "
        "file with its full name, its extension in lower case without the dot, and its exact size in "
        "bytes, sorted by file name A to Z. Under the last file add a row with Total in column A and a SUM "
        "formula of the sizes in column C. Save it as xlsx.",
        Wording.REQUEST: "Could you make an inventory of {folder} in a new workbook {xlsx}? I need the "
        "headers File name / Type / Size (bytes), then one row for each file in that folder itself (skip "
        "the {subfolder} subfolder), alphabetically by name: name with extension, the extension "
        "lower-case without a dot as the type, and the exact size in bytes (not kB). Finish with a Total "
        "row whose column C sums the sizes with a formula. Save as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I have to hand over the {n} files in {folder} with a manifest. "
        "Please build {xlsx}: headers File name, Type, Size (bytes) in row 1; a row per top-level file "
        "(leave out {subfolder}/), sorted A to Z by name, giving the file name, its lower-case extension "
        "without the dot, and the size in bytes exactly as the file's properties show; then a Total row "
        "right below with a SUM formula over the sizes in column C. Save it as xlsx.",
        Wording.GOAL: "Goal: {xlsx} exists with headers File name, Type, Size (bytes) in A1:C1, one row "
        "per file directly in {folder} (files inside {subfolder}/ excluded) sorted by name, holding the "
        "name, the lower-case extension without a dot and the exact byte size, followed by a row with "
        "Total in A and a SUM formula of the sizes in C. Saved as xlsx.",
        Wording.PROBLEM_FIX: "We have no record of what is in {folder}, and the auditors want one. Fix "
        "that with {xlsx}: columns File name, Type, Size (bytes); every file at the top level of the "
        "folder (not {subfolder}/) in A-to-Z order with its extension (lower case, no dot) and exact size "
        "in bytes; a Total row underneath summing column C with a formula. Save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        stem = rng.choice(sorted(FOLDERS))
        names = rng.sample(FOLDERS[stem], rng.randint(6, len(FOLDERS[stem])))
        files = {name: rng.randint(180, 48000) for name in names}
        rest = [n for n in FOLDERS[stem] if n not in names] or ["old_draft.txt"]
        subfolder = rng.choice(["archive", "old", "drafts", "superseded"])
        nested = {f"v1_{n}": rng.randint(100, 9000) for n in rng.sample(rest, min(2, len(rest)))}
        year = rng.randint(2021, 2025)
        folder = f"{rng.choice(['Documents', 'Desktop'])}/{stem}_{year}"
        return {
            "folder": folder,
            "subfolder": subfolder,
            "files": files,
            "nested": nested,
            "xlsx": f"Desktop/{stem}_{year}_inventory.xlsx",
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"folder": "~/" + P["folder"], "subfolder": P["subfolder"], "xlsx": "~/" + P["xlsx"],
                "n": str(len(P["files"]))}  # fmt: skip

    def context(self, P: dict) -> str:
        listing = sorted(P["files"].items(), key=lambda kv: kv[0].casefold())
        return (
            f"~/{P['folder']}/ holds {len(P['files'])} files {listing} (name, bytes) and a subfolder "
            f"{P['subfolder']}/ with {sorted(P['nested'])} that must not be listed. ~/{P['xlsx']} does not "
            f"exist. Expected: first sheet with headers {HEADERS}, rows 2..{len(listing) + 1} in that order "
            f"with name, lower-case extension, exact size; then 'Total' in A and a SUM formula = "
            f"{sum(P['files'].values())} in C. The folder is unchanged."
        )
