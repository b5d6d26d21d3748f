"""Calc: restrict a status column to a fixed list of entries (Data > Validity > Allow: List) and make
Calc reject anything else. The allowed list, the covered range and the error alert are scored apart.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# kind: (sheet, headers, column header to restrict, allowed-value pool, item prefix)
TRACKERS = {
    "tasks": ("Tasks", ["Task", "Owner", "Due"], "Status", ["Open", "In progress", "Blocked", "Done", "Cancelled"], "T"),
    "tickets": ("Tickets", ["Ticket", "Reporter", "Opened"], "Priority", ["Low", "Medium", "High", "Urgent"], "TK"),
    "samples": ("Samples", ["Sample", "Collector", "Received"], "Result", ["Pending", "Pass", "Fail", "Retest"], "S"),
    "orders": ("Orders", ["Order", "Customer", "Placed"], "Shipping", ["Standard", "Express", "Overnight", "Pickup"], "PO"),
    "leads": ("Leads", ["Lead", "Company", "Created"], "Stage", ["New", "Contacted", "Qualified", "Won", "Lost"], "L"),
}  # fmt: skip
PEOPLE = ["Ines", "Jonas", "Kemal", "Lucia", "Marta", "Nils", "Omar", "Priya", "Ravi", "Sofia", "Theo", "Yuki"]


def initial_setup(P):
    import datetime

    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["headers"])
    for ident, person, date, value in P["rows"]:
        ws.append([ident, person, datetime.date.fromisoformat(date), value])
        ws.cell(row=ws.max_row, column=3).number_format = "yyyy-mm-dd"
    for cell in ws[1]:
        cell.font = Font(bold=True)
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def add_validation(P, last_row):
    import openpyxl
    from openpyxl.worksheet.datavalidation import DataValidation

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    rule = DataValidation(type="list", formula1='"' + ",".join(P["allowed"]) + '"', allow_blank=True,
                          showErrorMessage=True, errorStyle="stop")  # fmt: skip
    rule.add(f"D2:D{last_row}")
    ws.add_data_validation(rule)
    wb.save(path)


def golden_patch(P):
    add_validation(P, len(P["rows"]) + 1)


def near_miss(P):
    # The selection stopped a few rows short of the last record.
    add_validation(P, len(P["rows"]) - 3)


def reward(P):
    import openpyxl
    from openpyxl.utils import range_boundaries

    path = HOME / P["path"]
    last = len(P["rows"]) + 1
    wanted = sorted(v.casefold() for v in P["allowed"])
    state = {}

    def book():
        if "wb" not in state:
            state["wb"] = openpyxl.load_workbook(path)
        return state["wb"]

    def sheet():
        return [s for s in book().worksheets if s.title.strip().casefold() == P["sheet"].casefold()][0]

    def entries(rule):
        """The values a list validation allows: an inline "a,b,c" list or a cell range."""
        source = str(rule.formula1 or "").strip()
        if source.startswith('"'):
            return [v.strip() for v in source.strip('"').replace(";", ",").split(",") if v.strip()]
        source = source.removeprefix("=")
        target, ref = source.rsplit("!", 1) if "!" in source else (sheet().title, source)
        target = target.strip("'").replace("''", "'")
        ws = [s for s in book().worksheets if s.title.casefold() == target.casefold()][0]
        c0, r0, c1, r1 = range_boundaries(ref.replace("$", ""))
        return [str(ws.cell(row=r, column=c).value).strip() for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                if ws.cell(row=r, column=c).value not in (None, "")]  # fmt: skip

    def list_rules():
        """Validations on the sheet that allow exactly the asked entries."""
        rules = [r for r in sheet().data_validations.dataValidation if r.type == "list"]
        return [r for r in rules if sorted(v.casefold() for v in entries(r)) == wanted]

    def covered_rows(rules):
        rows = set()
        for rule in rules:
            for area in rule.sqref.ranges:
                c0, r0, c1, r1 = range_boundaries(area.coord)
                if c0 <= 4 <= c1:
                    rows |= set(range(max(r0, 2), min(r1, last) + 1))
        return rows

    @precondition("the records are unchanged")
    def records_intact():
        ws = sheet()
        return [[ws.cell(row=r, column=c).value for c in (1, 2)] for r in range(2, last + 1)] == [
            row[:2] for row in P["rows"]]

    @component("a list validation allows exactly the asked entries on the column", 0.45)
    def allowed_list():
        return bool(covered_rows(list_rules()))

    @component("the validation covers every record row of the column", 0.35)
    def coverage():
        return len(covered_rows(list_rules())) / (last - 1)

    @component("invalid input is rejected with an error message (Stop)", 0.2)
    def error_alert():
        rules = [r for r in list_rules() if r.showErrorMessage and (r.errorStyle in (None, "stop"))]
        return bool(covered_rows(rules))


class ListValidation(Family):
    id = "calc.list_validation"
    apps = ("calc",)
    difficulty = Difficulty.MEDIUM
    leaves = ("calc/data/validation/list_validation",)
    domains = (Domain.MANAGEMENT, Domain.OFFICE_ADMIN, Domain.COMPUTER_MATH, Domain.SCIENCE, Domain.SALES)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC)
    helpers = (add_validation,)
    templates = {
        Wording.IMPERATIVE: "In {file}, restrict the {column} column (D2:D{last}) to the entries {listed} "
        "using a validity list, and make Calc reject any other input with a Stop error message. Save "
        "the file as xlsx.",
        Wording.REQUEST: "Could you set up {file} so that every cell of column D ({column}, rows 2 to "
        "{last}) only accepts one of {listed}, picked from a drop-down list, with an error message "
        "stopping anything else? Keep it as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I keep getting typos like \"{typo}\" in the {column} column of "
        "{file}. Please add a list validation to D2:D{last} allowing only {listed}, with invalid entries "
        "refused by an error message (action Stop). Save as xlsx.",
        Wording.GOAL: "Goal: in {file}, cells D2:D{last} of sheet {sheet} have a list validity rule "
        "whose entries are exactly {listed}, and entering anything else shows a Stop error. Saved as xlsx.",
        Wording.PROBLEM_FIX: "People type free text such as \"{typo}\" into {column} in {file}, which "
        "breaks our reports. Fix it: only {listed} may be entered in D2:D{last} (a validity list), and "
        "other input must be rejected with an error message. Save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(TRACKERS))
        sheet, headers, column, pool, prefix = TRACKERS[kind]
        allowed = pool[: rng.randint(3, len(pool))]
        n = rng.randint(12, 40)
        rows = []
        for i in rng.sample(range(100, 999), n):
            rows.append([f"{prefix}-{i}", rng.choice(PEOPLE), f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                         rng.choice(allowed) if rng.random() < 0.6 else None])  # fmt: skip
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_tracker_{rng.randint(1, 99)}.xlsx",
            "sheet": sheet,
            "headers": [*headers, column],
            "column": column,
            "allowed": allowed,
            "rows": rows,
        }

    def words(self, P: dict) -> dict[str, str]:
        listed = ", ".join(f'"{v}"' for v in P["allowed"])
        return {"file": "~/" + P["path"], "column": P["column"], "last": str(len(P["rows"]) + 1),
                "listed": listed, "sheet": P["sheet"], "typo": P["allowed"][1].lower().replace(" ", "")}  # fmt: skip

    def context(self, P: dict) -> str:
        last = len(P["rows"]) + 1
        return (
            f"~/{P['path']} sheet {P['sheet']!r}: headers {P['headers']}, {len(P['rows'])} records in rows "
            f"2..{last}, column D partly filled with allowed values; no validation. Expected: a list "
            f"validation on D2:D{last} (or a superset of rows in column D) with entries exactly {P['allowed']} "
            f"(any order, inline or from a range) and showErrorMessage on with errorStyle stop."
        )
