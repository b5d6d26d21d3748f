"""Calc: show a column of ratios as percentages with a set number of decimals (easy).

The values must stay ratios (0.153 shown as 15.3%); typing 15.3 over them is a different task and
fails the precondition. Calc's "Format as Percent" button gives 0.00%, the realistic near miss.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# kind: (sheet, label header, ratio header, label pool)
TABLES = {
    "survey": ("Results", "Question", "Agree share", ["Q1 Pricing", "Q2 Support", "Q3 Delivery", "Q4 Website",
               "Q5 Quality", "Q6 Returns", "Q7 Packaging", "Q8 Recommend", "Q9 Newsletter", "Q10 App"]),
    "market": ("Market", "Brand", "Market share", ["Acorn", "Birch", "Cedar", "Dune", "Ember", "Fjord", "Grove",
               "Harbor", "Iris", "Juniper", "Kestrel"]),
    "attendance": ("Attendance", "Class", "Attendance rate", ["7A", "7B", "8A", "8B", "9A", "9B", "10A", "10B",
                   "11A", "11B", "12A"]),
    "yield": ("Batches", "Batch", "Yield", ["LOT-101", "LOT-102", "LOT-103", "LOT-104", "LOT-105", "LOT-106",
              "LOT-107", "LOT-108", "LOT-109", "LOT-110"]),
    "budget": ("Budget", "Department", "Budget used", ["Admin", "Facilities", "Finance", "HR", "IT", "Legal",
               "Marketing", "Operations", "R&D", "Sales"]),
}  # fmt: skip


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["headers"])
    for label, count, ratio in zip(P["labels"], P["counts"], P["ratios"], strict=True):
        ws.append([label, count, ratio] if P["ratio_col"] == 3 else [label, ratio, count])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def apply_format(P, code):
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    for row in range(2, len(P["ratios"]) + 2):
        ws.cell(row=row, column=P["ratio_col"]).number_format = code
    wb.save(path)


def golden_patch(P):
    apply_format(P, "0%" if P["decimals"] == 0 else "0." + "0" * P["decimals"] + "%")


def near_miss(P):
    # The toolbar's "Format as Percent" button: percent, but always with two decimals.
    apply_format(P, "0.00%")


def reward(P):
    import re

    import openpyxl

    path = HOME / P["path"]
    rows = range(2, len(P["ratios"]) + 2)
    state = {}

    def sheet():
        if "ws" not in state:
            wb = openpyxl.load_workbook(path)
            state["ws"] = [s for s in wb.worksheets if s.title.strip().casefold() == P["sheet"].casefold()][0]
        return state["ws"]

    def first_section(code):
        """The positive-number section of a format code, without quoted text and [..] tags."""
        code = str(code or "").split(";")[0]
        return re.sub(r'"[^"]*"|\[[^\]]*\]|\\.', "", code)

    @precondition("the ratios are unchanged (still fractions, not retyped numbers)")
    def values_intact():
        values = [sheet().cell(row=r, column=P["ratio_col"]).value for r in rows]
        return all(isinstance(v, int | float) and abs(v - e) < 1e-9 for v, e in zip(values, P["ratios"], strict=True))

    @component("the ratio cells are formatted as percentages", 0.6)
    def is_percent():
        codes = [first_section(sheet().cell(row=r, column=P["ratio_col"]).number_format) for r in rows]
        return sum("%" in code for code in codes) / len(codes)

    @component("the percentages show exactly the asked number of decimals", 0.4)
    def decimals():
        def places(code):
            match = re.search(r"[0#?](?:\.([0#?]*))?\s*%", code)
            return len(match.group(1) or "") if match else None

        codes = [first_section(sheet().cell(row=r, column=P["ratio_col"]).number_format) for r in rows]
        return sum(places(code) == P["decimals"] for code in codes) / len(codes)


class PercentFormat(Family):
    id = "calc.percent_format"
    apps = ("calc",)
    difficulty = Difficulty.EASY
    leaves = ("calc/formatting/number/percent_format", "calc/formatting/number/decimal_places")
    domains = (Domain.SALES, Domain.EDUCATION, Domain.PRODUCTION, Domain.MANAGEMENT, Domain.BUSINESS_FINANCE)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.SCIENTIFIC)
    helpers = (apply_format,)
    templates = {
        Wording.IMPERATIVE: "In {file}, format {col}2:{col}{last} ({header}) as percentages with {places}, "
        "without changing the values, and save the file as xlsx.",
        Wording.REQUEST: "Could you make the {header} column in {file} show percentages, e.g. {example}, "
        "with {places}? The cells hold fractions like {raw}; only the display should change. Keep it xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I paste the {header} figures from {file} into a memo and they "
        "read like {raw}. Make {col}2:{col}{last} display as percentages with {places} (so {raw} shows as "
        "{example}) and save the xlsx.",
        Wording.GOAL: "Goal: in {file}, every {header} cell ({col}2:{col}{last}) keeps its value but is "
        "displayed as a percentage with {places}, like {example}. Saved as xlsx.",
        Wording.PROBLEM_FIX: "The {header} column in {file} shows raw fractions such as {raw}, which "
        "confuses readers. Fix it by displaying {col}2:{col}{last} as percentages with {places} "
        "(values unchanged), then save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(TABLES))
        sheet, label_header, ratio_header, pool = TABLES[kind]
        labels = rng.sample(pool, rng.randint(6, len(pool)))
        counts = [rng.randint(40, 900) for _ in labels]
        ratios = [round(rng.uniform(0.02, 0.98), 4) for _ in labels]
        ratio_col = rng.choice([2, 3])
        other = rng.choice(["Responses", "Units", "Students", "Samples", "Headcount"])
        headers = [label_header, other, ratio_header] if ratio_col == 3 else [label_header, ratio_header, other]
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{rng.randint(2019, 2025)}_{rng.randint(1, 12):02d}.xlsx",
            "sheet": sheet,
            "headers": headers,
            "labels": labels,
            "counts": counts,
            "ratios": ratios,
            "ratio_col": ratio_col,
            "decimals": rng.choice([0, 1]),
        }

    def words(self, P: dict) -> dict[str, str]:
        raw = P["ratios"][0]
        places = "no decimal places" if P["decimals"] == 0 else "one decimal place"
        return {"file": "~/" + P["path"], "col": "BC"[P["ratio_col"] - 2], "last": str(len(P["ratios"]) + 1),
                "header": P["headers"][P["ratio_col"] - 1], "places": places, "raw": f"{raw:g}",
                "example": f"{raw * 100:.{P['decimals']}f}%"}  # fmt: skip

    def context(self, P: dict) -> str:
        col = "BC"[P["ratio_col"] - 2]
        code = "0%" if P["decimals"] == 0 else "0.0%"
        return (
            f"~/{P['path']} sheet {P['sheet']!r}: headers {P['headers']}, ratios {P['ratios']} in "
            f"{col}2:{col}{len(P['ratios']) + 1} with format General. Expected: those cells formatted like "
            f"{code} ({P['decimals']} decimals), values unchanged."
        )
