"""Cross-app (Calc -> Writer): compute line totals and a grand total in a cost sheet, then carry the
total into a Writer report's sentence and the per-item amounts into a Writer table (paper §3.7:
"a Calc total that must appear in a Writer report"). Four independently scored parts."""

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

PROJECTS = {
    "office move": ["Moving crates", "Van hire", "Cable trays", "Desk lamps", "Network switch", "Labels",
                    "Packing tape", "Whiteboard", "Shelving unit", "Cleaning service"],
    "lab refit": ["Fume hood filter", "Pipette set", "Bench mats", "Centrifuge tubes", "Safety goggles",
                  "Glass beakers", "Sample fridge", "Lab coats", "Spill kit", "Timer"],
    "school trip": ["Coach hire", "Museum tickets", "Lunch packs", "Insurance", "Worksheets", "First-aid kit",
                    "Guide fee", "Water bottles", "Lanyards", "Rain ponchos"],
    "trade fair": ["Booth rental", "Banner print", "Brochures", "Demo laptop", "Giveaway pens", "Lighting",
                   "Carpet tiles", "Power strip", "Catering", "Badge scanner"],
    "kitchen renovation": ["Cabinet doors", "Worktop", "Tiles", "Grout", "Sink", "Mixer tap", "Paint",
                           "Handles", "Extractor fan", "Skirting"],
}  # fmt: skip
AUTHORS = ["R. Okafor", "M. Lindqvist", "J. Alvarez", "S. Nakamura", "P. Haddad", "L. Moreau", "T. Brennan"]
PLACEHOLDERS = ["[TOTAL]", "[total amount]", "<TOTAL>", "XX,XXX.XX", "[amount]"]


def initial_setup(P):
    import docx
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(["Item", "Quantity", "Unit price", "Line total"])
    for name, quantity, price in P["items"]:
        ws.append([name, quantity, price, None])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.column_dimensions["A"].width = 20
    xlsx = HOME / P["xlsx"]
    xlsx.parent.mkdir(parents=True, exist_ok=True)
    wb.save(xlsx)

    doc = docx.Document()
    doc.add_heading(P["title"], level=1)
    doc.add_paragraph(f"Prepared by {P['author']}.")
    doc.add_paragraph(P["sentence"].replace("{total}", P["placeholder"]))
    doc.add_paragraph("Itemised costs:")
    doc.add_paragraph("Please contact the author with any questions about these figures.")
    report = HOME / P["docx"]
    report.parent.mkdir(parents=True, exist_ok=True)
    doc.save(report)


def complete(P, table_column):
    import docx
    import openpyxl

    xlsx = HOME / P["xlsx"]
    wb = openpyxl.load_workbook(xlsx)
    ws = wb[P["sheet"]]
    last = len(P["items"]) + 1
    for row in range(2, last + 1):
        ws.cell(row=row, column=4).value = f"=B{row}*C{row}"
    ws.cell(row=last + 1, column=3).value = "Total"
    ws.cell(row=last + 1, column=4).value = f"=SUM(D2:D{last})"
    wb.save(xlsx)

    report = HOME / P["docx"]
    doc = docx.Document(report)
    for paragraph in doc.paragraphs:
        for run in paragraph.runs:
            if P["placeholder"] in run.text:
                run.text = run.text.replace(P["placeholder"], f"{P['symbol']}{P['total']:,.2f}")
    table = doc.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Item", "Line total"
    for (name, _quantity, price), line in zip(P["items"], P["line_totals"], strict=True):
        cells = table.add_row().cells
        cells[0].text = name
        cells[1].text = f"{(line if table_column == 'line' else price):,.2f}"
    anchor = [p for p in doc.paragraphs if p.text.startswith("Itemised costs")][0]
    anchor._p.addnext(table._tbl)  # the table goes right under its caption
    doc.save(report)


def golden_patch(P):
    complete(P, "line")


def near_miss(P):
    # Everything done, but the report table was filled from the Unit price column.
    complete(P, "price")


def numbers_in(text):
    """Every number written in `text`, reading 12,345.67 / 12.345,67 / 12 345.67 / 12345.67 alike."""
    import re

    found = []
    for token in re.findall(r"\d[\d.,'\u00a0\u202f]*\d|\d", text):
        token = re.sub(r"['\u00a0\u202f]", "", token)
        last_sep = max(token.rfind(","), token.rfind("."))
        if last_sep >= 0 and len(token) - last_sep - 1 != 3:  # a decimal separator
            whole, frac = token[:last_sep], token[last_sep + 1:]
            token = re.sub(r"[.,]", "", whole) + "." + frac
        else:  # only thousands separators
            token = re.sub(r"[.,]", "", token)
        try:
            found.append(float(token))
        except ValueError:
            continue
    return found


def reward(P):
    import docx

    xlsx = HOME / P["xlsx"]
    report = HOME / P["docx"]
    last = len(P["items"]) + 1
    state = {}

    def book():
        if "book" not in state:
            state["book"] = open_book(xlsx)
        return state["book"]

    def document():
        if "doc" not in state:
            state["doc"] = docx.Document(report)
        return state["doc"]

    def squash(text):
        return " ".join(text.split()).casefold()

    @precondition("the cost sheet's items, quantities and prices are unchanged")
    def items_intact():
        ws = find_sheet(book()["f"], P["sheet"])
        rows = [[ws.cell(row=r, column=c).value for c in (1, 2, 3)] for r in range(2, last + 1)]
        return all(str(got[0]).strip() == name and close_to(got[1], quantity, tol=1e-6) and close_to(got[2], price, tol=1e-6)
                   for got, (name, quantity, price) in zip(rows, P["items"], strict=True))  # fmt: skip

    @precondition("the report still has its title")
    def report_intact():
        return any(squash(p.text) == squash(P["title"]) for p in document().paragraphs)

    @component("column D holds a Quantity x Unit price formula for every item", 0.25)
    def line_totals():
        ws = find_sheet(book()["f"], P["sheet"])
        hits = [is_formula(ws.cell(row=r, column=4).value)
                and close_to(computed_value(book(), ws.title, r, 4), P["line_totals"][r - 2])
                for r in range(2, last + 1)]  # fmt: skip
        return sum(hits) / len(hits)

    @component("the row under the items sums the line totals with a formula", 0.15)
    def grand_total():
        ws = find_sheet(book()["f"], P["sheet"])
        if not is_formula(ws.cell(row=last + 1, column=4).value):
            return False
        value = computed_value(book(), ws.title, last + 1, 4)
        shown = [computed_value(book(), ws.title, r, 4) for r in range(2, last + 1)]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in shown)
        return close_to(value, P["total"]) or (numeric and close_to(value, sum(shown)))

    @component("the report sentence states the grand total in place of the placeholder", 0.35)
    def sentence():
        stem = squash(P["sentence"].split("{total}")[0])
        texts = [p.text for p in document().paragraphs]
        if any(P["placeholder"] in t for t in texts):
            return False
        hits = [t for t in texts if squash(t).startswith(stem)]
        return any(close_to(n, P["total"]) for t in hits for n in numbers_in(t))

    @component("a report table lists every item with its line total", 0.25)
    def table():
        rows = [[c.text for c in row.cells] for t in document().tables for row in t.rows]
        found = 0
        for (name, _, _), line in zip(P["items"], P["line_totals"], strict=True):
            found += any(
                any(squash(cell) == squash(name) for cell in row)
                and any(close_to(n, line) for cell in row if squash(cell) != squash(name) for n in numbers_in(cell))
                for row in rows
            )
        return found / len(P["items"])


class TotalToReport(Family):
    id = "calc.total_to_report"
    apps = ("calc", "writer")
    platform = Platform.CROSS
    difficulty = Difficulty.HARD
    leaves = ("calc/files/exchange/report_to_document", "calc/formulas/arithmetic/cell_arithmetic",
              "calc/formulas/arithmetic/sum_range", "calc/editing/fill/fill_down")  # fmt: skip
    domains = (Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN, Domain.MANAGEMENT, Domain.EDUCATION, Domain.CONSTRUCTION)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.PERSONAL)
    helpers = (open_book, find_sheet, is_formula, close_to, computed_value, evaluate_formula, complete, numbers_in)
    templates = {
        Wording.IMPERATIVE: "Open {xlsx} in Calc: fill D2:D{last} with formulas multiplying Quantity by "
        "Unit price, write Total in C{total_row} and a SUM of the line totals in D{total_row}; save it as "
        "xlsx. Then open the report {docx} in Writer, replace {placeholder} with that grand total (two "
        "decimals), and insert a table under \"Itemised costs:\" with one row per item giving its name and "
        "line total. Save the report as docx.",
        Wording.REQUEST: "Could you finish the {project} costing? In {xlsx}, column D (Line total) needs "
        "a Quantity × Unit price formula on every item row and D{total_row} needs the SUM of them, "
        "labelled Total in C{total_row}. Then put the grand total, with two decimals, where {placeholder} "
        "is in {docx}, and add a two-column table (item, line total) for all {n} items below \"Itemised "
        "costs:\". Keep both files in their formats.",
        Wording.CONTEXTUAL: "As {persona}, I send a cost report for the {project} today. The figures are "
        "in {xlsx} and the draft is {docx}. In the sheet, compute each line total in column D (rows 2 to "
        "{last}) as quantity times unit price with formulas and put the SUM of those in D{total_row} with "
        "the label Total in C{total_row}. In the report, the sentence still says {placeholder}: put the "
        "grand total there (two decimals) and add a table under \"Itemised costs:\" listing each item's "
        "name and line total. Save both (xlsx and docx).",
        Wording.GOAL: "Goal: {xlsx} has formulas =Quantity×Unit price in D2:D{last}, \"Total\" in "
        "C{total_row} and a SUM of D2:D{last} in D{total_row}; {docx} no longer contains {placeholder}: "
        "its sentence states the grand total with two decimals, and a table under \"Itemised costs:\" has "
        "a row for each of the {n} items with its name and line total. Both files saved in their formats.",
        Wording.PROBLEM_FIX: "The {project} report {docx} still says {placeholder} and has no breakdown, "
        "because the totals in {xlsx} were never worked out. Fix both: in the sheet add Quantity × Unit "
        "price formulas in D2:D{last} and a Total (label in C{total_row}, SUM in D{total_row}); in the "
        "report replace {placeholder} with the grand total to two decimals and add a table under "
        "\"Itemised costs:\" with each item's name and line total. Save the xlsx and the docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        project = rng.choice(sorted(PROJECTS))
        names = rng.sample(PROJECTS[project], rng.randint(5, 9))
        items = [[name, rng.randint(2, 40), round(rng.uniform(1.5, 900), 2)] for name in names]
        line_totals = [round(q * p, 2) for _, q, p in items]
        symbol = rng.choice(["$", "€", "£"])
        stem = project.replace(" ", "_")
        tag = rng.randint(10, 99)
        sentence = rng.choice([
            "The total cost of the {project} is {total}, within the approved budget.",
            "The total cost of the {project} comes to {total} including all items below.",
            "The total cost of the {project} is {total}.",
        ]).replace("{project}", project)  # fmt: skip
        return {
            "xlsx": f"Documents/{stem}_costs_{tag}.xlsx",
            "docx": f"Documents/{stem}_report_{tag}.docx",
            "sheet": rng.choice(["Items", "Costs", "Budget"]),
            "items": items,
            "line_totals": line_totals,
            "total": round(sum(line_totals), 2),
            "symbol": symbol,
            "project": project,
            "title": f"{project.title()} cost report",
            "author": rng.choice(AUTHORS),
            "sentence": sentence,
            "placeholder": rng.choice(PLACEHOLDERS),
        }

    def words(self, P: dict) -> dict[str, str]:
        n = len(P["items"])
        return {"xlsx": "~/" + P["xlsx"], "docx": "~/" + P["docx"], "project": P["project"], "n": str(n),
                "last": str(n + 1), "total_row": str(n + 2), "placeholder": P["placeholder"]}  # fmt: skip

    def context(self, P: dict) -> str:
        n = len(P["items"])
        return (
            f"~/{P['xlsx']} sheet {P['sheet']!r}: header Item, Quantity, Unit price, Line total; items "
            f"{P['items']} in rows 2..{n + 1}, column D empty. ~/{P['docx']}: heading {P['title']!r}, "
            f"'Prepared by {P['author']}.', the sentence {P['sentence'].replace('{total}', P['placeholder'])!r}, "
            f"'Itemised costs:', a closing line; no tables. Expected: D2..D{n + 1} formulas giving "
            f"{P['line_totals']}, 'Total' in C{n + 2} and a SUM formula in D{n + 2} = {P['total']}; the report "
            f"sentence shows {P['total']:,.2f} (any currency sign or separator style) instead of {P['placeholder']}; "
            f"a table with one row per item holding its name and line total."
        )
