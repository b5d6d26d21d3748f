"""Calc: make a long table readable: bold header row, header (and maybe first column) frozen.

Easy: three atomic actions (select row 1, bold, View > Freeze Cells). The pane is judged by its
split counts, never by its top-left cell, which only says where the user had scrolled.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

TABLES = {
    "timesheet": ("Hours", ["Employee", "Week", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Overtime", "Project"]),
    "inventory": ("Inventory", ["Item", "SKU", "Location", "On hand", "Reserved", "Reorder point", "Supplier",
                                "Unit cost", "Last count"]),
    "gradebook": ("Grades", ["Student", "Quiz 1", "Quiz 2", "Quiz 3", "Midterm", "Lab", "Project", "Final",
                             "Attendance", "Comments"]),
    "fleet": ("Vehicles", ["Plate", "Model", "Year", "Mileage", "Last service", "Next service", "Driver",
                           "Fuel type", "Depot"]),
    "trial": ("Participants", ["Participant", "Arm", "Age", "Weight", "Visit 1", "Visit 2", "Visit 3",
                               "Adverse events", "Site"]),
}  # fmt: skip
WORDS = ["alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "sierra", "tango", "zulu"]


def initial_setup(P):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["headers"])
    for row in P["rows"]:
        ws.append(row)
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def style_header(P, freeze_at):
    import openpyxl
    from openpyxl.styles import Font

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = freeze_at
    wb.save(path)


def golden_patch(P):
    style_header(P, "B2" if P["freeze_column"] else "A2")


def near_miss(P):
    # The cursor was on row 3 when freezing, so two rows stay pinned instead of the header alone.
    style_header(P, "B3" if P["freeze_column"] else "A3")


def reward(P):
    import openpyxl

    path = HOME / P["path"]
    state = {}

    def sheet():
        if "ws" not in state:
            wb = openpyxl.load_workbook(path)
            matches = [ws for ws in wb.worksheets if ws.title.strip().casefold() == P["sheet"].casefold()]
            state["ws"] = matches[0]
        return state["ws"]

    @precondition("the table is still there, header first")
    def table_intact():
        ws = sheet()
        return [c.value for c in ws[1]][: len(P["headers"])] == P["headers"] and ws.max_row >= len(P["rows"])

    @component("exactly the header row (plus column A if asked) is frozen", 0.6)
    def frozen():
        pane = sheet().sheet_view.pane
        if pane is None or pane.state not in ("frozen", "frozenSplit"):
            return False
        rows_ok = int(pane.ySplit or 0) == 1
        cols_ok = int(pane.xSplit or 0) == (1 if P["freeze_column"] else 0)
        return (rows_ok + cols_ok) / 2 if rows_ok else 0.0

    @component("every header cell is bold", 0.4)
    def bold_header():
        cells = [c for c in sheet()[1] if c.value not in (None, "")]
        return sum(bool(c.font is not None and c.font.b) for c in cells) / len(cells)


class FreezeHeader(Family):
    id = "calc.freeze_header"
    apps = ("calc",)
    difficulty = Difficulty.EASY
    leaves = ("calc/sheets/view/freeze_panes", "calc/formatting/font/bold_header")
    domains = (Domain.OFFICE_ADMIN, Domain.EDUCATION, Domain.TRANSPORTATION, Domain.HEALTHCARE, Domain.PRODUCTION)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.SCIENTIFIC)
    helpers = (style_header,)
    templates = {
        Wording.IMPERATIVE: "In {file}, make the header row bold and freeze {what} so {they_stay} "
        "visible while scrolling. Save the file as xlsx.",
        Wording.REQUEST: "Could you make the headers in row 1 of {file} bold and freeze {what}? The "
        "sheet is {n} rows long and I keep losing track of the columns. Keep it as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I scroll through the {sheet} sheet in {file} all day. Please "
        "bold its header row and freeze {what} (nothing more) so {they} never scroll away; save as xlsx.",
        Wording.GOAL: "Goal: in {file}, every header cell in row 1 is bold and exactly {what} {are} "
        "frozen on sheet {sheet}. Saved as xlsx.",
        Wording.PROBLEM_FIX: "When I scroll down {file} the column headings disappear and they do not "
        "stand out either. Fix it: bold row 1 and freeze {what}, no extra rows, then save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(TABLES))
        sheet, headers = TABLES[kind]
        headers = headers[: rng.randint(7, len(headers))]
        n = rng.randint(40, 120)
        rows = []
        for i in range(n):
            row = [f"{rng.choice(WORDS).title()} {i + 1}"]
            row += [rng.randint(0, 500) if rng.random() < 0.7 else rng.choice(WORDS) for _ in headers[1:]]
            rows.append(row)
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{rng.randint(100, 999)}.xlsx",
            "sheet": sheet,
            "headers": headers,
            "rows": rows,
            "freeze_column": rng.random() < 0.5,
        }

    def words(self, P: dict) -> dict[str, str]:
        both = P["freeze_column"]
        what = f"the top row and the first column ({P['headers'][0]})" if both else "the top row"
        return {"file": "~/" + P["path"], "sheet": P["sheet"], "n": str(len(P["rows"]) + 1), "what": what,
                "they": "they" if both else "it", "they_stay": "they stay" if both else "it stays", "are": "are" if both else "is"}  # fmt: skip

    def context(self, P: dict) -> str:
        frozen = "row 1 and column A (pane xSplit=1, ySplit=1)" if P["freeze_column"] else "row 1 (ySplit=1, xSplit=0)"
        return (
            f"~/{P['path']} sheet {P['sheet']!r}: header row {P['headers']} (not bold) and {len(P['rows'])} "
            f"data rows; no frozen panes. Expected: header cells bold, frozen panes at exactly {frozen}; data unchanged."
        )
