"""Calc: sort a table by two keys (Data > Sort) without tearing its records apart.

Both keys are scored on their own: the primary column must be in order, and inside every group of
equal primary values the secondary column must be in the asked direction. A sort that scrambles
records (one column sorted alone) fails the precondition and earns nothing.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# kind: (sheet, headers, primary-key values, primary column, secondary column, secondary value range)
SCHEMAS = {
    "staff": ("Staff", ["Name", "Department", "Salary", "Start year"],
              ["Finance", "Legal", "Marketing", "Operations", "Research", "Sales"], 2, 3, (38000, 125000)),
    "orders": ("Orders", ["Order", "Region", "Order total", "Items"],
               ["Central", "East", "North", "South", "West"], 2, 3, (80, 9500)),
    "league": ("Standings", ["Player", "Team", "Points", "Games"],
               ["Comets", "Falcons", "Hornets", "Otters", "Wolves"], 2, 3, (3, 480)),
    "library": ("Catalogue", ["Title", "Genre", "Year", "Copies"],
                ["Biography", "Fantasy", "History", "Mystery", "Poetry", "Science"], 2, 3, (1950, 2024)),
    "lab": ("Samples", ["Sample", "Batch", "Yield", "Operator"],
            ["B-07", "B-12", "B-19", "B-23"], 2, 3, (40, 990)),
}  # fmt: skip
NAMES = ["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray", "Harper", "Indy", "Jordan", "Kendall",
         "Logan", "Morgan", "Noel", "Oakley", "Parker", "Quinn", "Reese", "Sage", "Taylor", "Umber", "Vale"]  # fmt: skip


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["headers"])
    for row in P["rows"]:
        ws.append(row)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def write_sorted(P, secondary_descending):
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    rows = sorted(P["rows"], key=lambda r: r[P["secondary"] - 1], reverse=secondary_descending)
    rows = sorted(rows, key=lambda r: str(r[P["primary"] - 1]).casefold())  # stable: keeps the tie order
    for i, row in enumerate(rows, start=2):
        for j, value in enumerate(row, start=1):
            ws.cell(row=i, column=j).value = value
    wb.save(path)


def golden_patch(P):
    write_sorted(P, P["descending"])


def near_miss(P):
    # Second key added but its direction left at the default (or flipped): ties go the wrong way.
    write_sorted(P, not P["descending"])


def reward(P):
    import openpyxl

    path = HOME / P["path"]
    n = len(P["rows"])
    width = len(P["headers"])
    state = {}

    def records():
        if "rows" not in state:
            wb = openpyxl.load_workbook(path)
            ws = [s for s in wb.worksheets if s.title.strip().casefold() == P["sheet"].casefold()][0]
            state["rows"] = [[ws.cell(row=r, column=c).value for c in range(1, width + 1)] for r in range(2, n + 2)]
        return state["rows"]

    def primary_keys():
        return [str(r[P["primary"] - 1]).strip().casefold() for r in records()]

    @precondition("every record is intact (rows moved whole, none lost or added)")
    def intact():
        key = lambda row: [str(v) for v in row]  # noqa: E731  (mixed types: compare as text)
        return sorted(map(key, records())) == sorted(map(key, P["rows"]))

    @component("rows are in ascending order of the first key", 0.5)
    def primary_sorted():
        keys = primary_keys()
        return all(a <= b for a, b in zip(keys, keys[1:], strict=False))

    @component("within each first-key group the second key runs in the asked direction", 0.5)
    def secondary_sorted():
        groups = {}
        for key, row in zip(primary_keys(), records(), strict=True):
            groups.setdefault(key, []).append(row[P["secondary"] - 1])
        in_order = (all((a >= b) if P["descending"] else (a <= b) for a, b in zip(vs, vs[1:], strict=False))
                    for vs in groups.values())  # fmt: skip
        return all(in_order)


class SortRecords(Family):
    id = "calc.sort_records"
    apps = ("calc",)
    difficulty = Difficulty.MEDIUM
    leaves = ("calc/data/sort/multi_key_sort",)
    domains = (Domain.OFFICE_ADMIN, Domain.SALES, Domain.MANAGEMENT, Domain.SCIENCE, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.SCIENTIFIC)
    helpers = (write_sorted,)
    templates = {
        Wording.IMPERATIVE: "Sort the table in {file} (sheet {sheet}, header in row 1) by {primary} "
        "from A to Z, and within the same {primary} by {secondary} {direction}. Keep each row's values "
        "together and save the file as xlsx.",
        Wording.REQUEST: "Could you sort the {sheet} table in {file} so it is grouped by {primary} "
        "(alphabetically) and, inside each {primary}, ordered by {secondary} {direction}? The whole rows "
        "must move together; header stays in row 1. Please keep it as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I compare {secondary} within each {primary} in {file}. Please "
        "sort the data rows of sheet {sheet} by {primary} ascending, then by {secondary} {direction}, "
        "keeping records whole, and save as xlsx.",
        Wording.GOAL: "Goal: the data rows of sheet {sheet} in {file} appear in ascending {primary} "
        "order, ties ordered by {secondary} {direction}, with every record intact and the header in row "
        "1. The file is saved as xlsx.",
        Wording.PROBLEM_FIX: "The {sheet} sheet in {file} is in no useful order. Fix it: sort the rows by "
        "{primary} A to Z and then by {secondary} {direction}, without splitting any record; save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(SCHEMAS))
        sheet, headers, groups, primary, secondary, (low, high) = SCHEMAS[kind]
        groups = rng.sample(groups, rng.randint(3, len(groups)))
        n = rng.randint(12, 30)
        labels = rng.sample([f"{a} {b}" for a in NAMES for b in "ABCDEFGH"], n)
        seconds = rng.sample(range(low, high), n)
        descending = rng.random() < 0.7
        while True:
            members = [groups[i % len(groups)] for i in range(n)]  # every group has >= 3 rows
            rng.shuffle(members)
            rows = [[labels[i], members[i], seconds[i], rng.randint(1, 40)] for i in range(n)]
            keys = [r[1].casefold() for r in rows]
            by_group = [[r[2] for r in rows if r[1] == g] for g in groups]
            in_order = all((a >= b) if descending else (a <= b) for vs in by_group for a, b in zip(vs, vs[1:], strict=False))
            if keys != sorted(keys) and not in_order:  # the initial order earns neither component
                break
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{rng.randint(1000, 9999)}.xlsx",
            "sheet": sheet,
            "headers": headers,
            "rows": rows,
            "primary": primary,
            "secondary": secondary,
            "descending": descending,
        }

    def words(self, P: dict) -> dict[str, str]:
        direction = "from largest to smallest" if P["descending"] else "from smallest to largest"
        return {"file": "~/" + P["path"], "sheet": P["sheet"], "primary": P["headers"][P["primary"] - 1],
                "secondary": P["headers"][P["secondary"] - 1], "direction": direction}  # fmt: skip

    def context(self, P: dict) -> str:
        order = "descending" if P["descending"] else "ascending"
        return (
            f"~/{P['path']} sheet {P['sheet']!r}: header {P['headers']} and {len(P['rows'])} records in rows "
            f"2..{len(P['rows']) + 1}, unsorted: {P['rows']}. Expected: the same records ordered by "
            f"{P['headers'][P['primary'] - 1]} ascending (case-insensitive), ties by "
            f"{P['headers'][P['secondary'] - 1]} {order}; header stays in row 1."
        )
