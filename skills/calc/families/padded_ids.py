"""Calc: pad numeric IDs with a TEXT formula in B2 and fill it down (paper appendix E.1.1)."""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

FIRST_NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena",
               "Mo", "Nia", "Oren", "Pia", "Quinn", "Rui", "Sana", "Tomas", "Uma", "Vik", "Wen", "Yara"]  # fmt: skip
SHEETS = {"employee": "Staff", "sample": "Samples", "student": "Roster", "order": "Orders", "asset": "Assets"}


def initial_setup(P):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append([P["id_header"], P["padded_header"], "Name"])
    for number, name in zip(P["ids"], P["names"], strict=True):
        ws.append([number, None, name])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def golden_patch(P):
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    zeros = "0" * P["width"]
    for row in range(2, len(P["ids"]) + 2):
        ws.cell(row=row, column=2).value = f'=TEXT(A{row},"{zeros}")'
    wb.save(path)


def near_miss(P):
    # The classic slip: the formula is right in B2 but filled down with an absolute reference.
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    zeros = "0" * P["width"]
    for row in range(2, len(P["ids"]) + 2):
        ws.cell(row=row, column=2).value = f'=TEXT($A$2,"{zeros}")'
    wb.save(path)


def reward(P):
    import re

    import openpyxl

    path = HOME / P["path"]
    rows = list(range(2, len(P["ids"]) + 2))
    book = {}

    def sheet(data_only=False):
        key = "values" if data_only else "formulas"
        if key not in book:
            book[key] = openpyxl.load_workbook(path, data_only=data_only)[P["sheet"]]
        return book[key]

    def pads_correctly(row):
        """B<row> is a formula that zero-pads some A cell to P['width'] digits."""
        formula = sheet().cell(row=row, column=2).value
        if not isinstance(formula, str) or not formula.startswith("="):
            return False
        compact = formula.upper().replace(" ", "").replace(";", ",")
        text_ok = re.search(r'TEXT\(\$?A\$?\d+,"0{' + str(P["width"]) + r'}"\)', compact) is not None
        rept_ok = re.search(r'RIGHT\(.*\$?A\$?\d+.*,' + str(P["width"]) + r'\)', compact) is not None
        cached = sheet(data_only=True).cell(row=row, column=2).value
        expected = str(P["ids"][row - 2]).zfill(P["width"])
        return text_ok or rept_ok or cached == expected

    def references_own_row(row):
        formula = sheet().cell(row=row, column=2).value or ""
        refs = re.findall(r"\$?A\$?(\d+)", str(formula).upper())
        return pads_correctly(row) and refs == [str(row)]

    @precondition("the ID column still holds the original numbers")
    def ids_intact():
        return [sheet().cell(row=r, column=1).value for r in rows] == P["ids"]

    @component("B2 pads A2 with a TEXT formula", 0.4)
    def first_cell():
        return references_own_row(2)

    @component("the formula is filled down through the last row", 0.3)
    def propagated():
        return sum(pads_correctly(r) for r in rows[1:]) / len(rows[1:])

    @component("every row refers to its own A cell", 0.3)
    def relative_refs():
        return sum(references_own_row(r) for r in rows[1:]) / len(rows[1:])


class PaddedIds(Family):
    id = "calc.padded_ids"
    apps = ("calc",)
    difficulty = Difficulty.MEDIUM
    leaves = ("calc/formulas/text_functions/pad_with_text", "calc/editing/fill/fill_down")
    domains = (Domain.OFFICE_ADMIN, Domain.BUSINESS_FINANCE, Domain.SCIENCE, Domain.EDUCATION)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.SCIENTIFIC)
    templates = {
        Wording.IMPERATIVE: "In {file}, fill column B ({padded_header}) with a formula that shows each "
        "{kind} number from column A padded with leading zeros to {width} digits. Start with a TEXT "
        "formula in B2 and fill it down to B{last}, then save the file in place.",
        Wording.REQUEST: "Could you open {file} and add a formula in B2 that turns the {kind} number in "
        "A2 into a {width}-digit code with leading zeros, copied down through row {last}? Keep it as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I import {file} into a system that needs {width}-digit {kind} "
        "codes. Column A has the raw numbers; column B ({padded_header}) should compute the zero-padded "
        "code with a formula for every row down to {last}. Save the workbook when done.",
        Wording.GOAL: "Goal: in {file}, every row from 2 to {last} has in column B a formula producing "
        "the column-A {kind} number as a {width}-digit zero-padded text. Save the file.",
        Wording.PROBLEM_FIX: "The upload of {file} keeps failing because {kind} numbers must be exactly "
        "{width} digits. Fix it by adding zero-padding formulas in column B (B2 to B{last}) based on "
        "column A, and save.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(SHEETS))
        n = rng.randint(5, 12)
        width = rng.randint(5, 8)
        ids = rng.sample(range(1, 10 ** (width - 2)), n)
        return {
            "kind": kind,
            "sheet": SHEETS[kind],
            "path": f"Desktop/{kind}_ids_{rng.randint(100, 999)}.xlsx",
            "id_header": f"{kind.title()} No",
            "padded_header": f"{kind.title()} Code",
            "width": width,
            "ids": ids,
            "names": [rng.choice(FIRST_NAMES) for _ in ids],
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "kind": P["kind"], "width": str(P["width"]),
                "last": str(len(P["ids"]) + 1), "padded_header": P["padded_header"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']} has sheet {P['sheet']!r}: header row ({P['id_header']}, {P['padded_header']}, "
            f"Name), then {len(P['ids'])} rows with IDs {P['ids']} in column A and column B empty. "
            f"Expected: B2..B{len(P['ids']) + 1} hold formulas such as =TEXT(A2,\"{'0' * P['width']}\") "
            f"each referring to its own row; column A unchanged."
        )
