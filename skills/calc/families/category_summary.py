"""Calc: a per-category summary sheet built with SUMIF(S)/COUNTIF formulas, a grand total and a
currency format (paper appendix E.1.4's "SUMIFS summaries"; long-horizon: five scored parts)."""

from __future__ import annotations

import datetime as dt
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
from tasks.models import Difficulty, Domain, Scenario, Wording

# ledger kind -> (sheet names, category pool, description pool, amount range)
LEDGERS = {
    "expense": (["Expenses", "Ledger", "Q3 Costs"], ["Travel", "Meals", "Office supplies", "Software",
                "Training", "Utilities", "Postage", "Marketing"], ["Invoice", "Receipt", "Card payment",
                "Reimbursement"], (12, 1900)),
    "sales": (["Sales", "Orders", "Sales Log"], ["Accessories", "Bikes", "Clothing", "Components",
              "Helmets", "Tools", "Service"], ["Web order", "Store sale", "Phone order"], (25, 3200)),
    "lab": (["Purchases", "Lab Orders"], ["Reagents", "Glassware", "Pipette tips", "Gloves", "Antibodies",
            "Media", "Calibration"], ["PO", "Standing order", "Urgent order"], (9, 2400)),
    "household": (["Budget", "Spending"], ["Groceries", "Rent", "Transport", "Dining out", "Health",
                  "Insurance", "Hobbies"], ["Card", "Transfer", "Cash"], (5, 1500)),
}  # fmt: skip
CURRENCIES = {"EUR": "€", "USD": "$", "GBP": "£"}


def initial_setup(P):
    import datetime

    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["data_sheet"]
    ws.append(["Date", "Category", "Description", "Amount"])
    for date, category, description, amount in P["rows"]:
        ws.append([datetime.date.fromisoformat(date), category, description, amount])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in ws.iter_rows(min_row=2, min_col=1, max_col=1):
        row[0].number_format = "yyyy-mm-dd"
    ws.column_dimensions["A"].width = 12
    ws.column_dimensions["B"].width = 16
    ws.column_dimensions["C"].width = 18
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def write_summary(P, shifting_sum_range):
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb.create_sheet(P["summary_sheet"])
    data = "'" + P["data_sheet"].replace("'", "''") + "'"
    last = len(P["rows"]) + 1
    ws.append(["Category", "Total", "Count"])
    for i, category in enumerate(P["categories"]):
        row = i + 2
        if shifting_sum_range:  # relative ranges copied down: each row's range starts one lower
            total = f"=SUMIF({data}!B{2 + i}:B{last + i},A{row},{data}!D{2 + i}:D{last + i})"
        else:
            total = f"=SUMIFS({data}!$D$2:$D${last},{data}!$B$2:$B${last},A{row})"
        ws.append([category, total, f"=COUNTIF({data}!$B$2:$B${last},A{row})"])
    total_row = len(P["categories"]) + 2
    ws.append(["Total", f"=SUM(B2:B{total_row - 1})"])
    for row in range(2, total_row + 1):
        ws.cell(row=row, column=2).number_format = P["format"]
    wb.save(path)


def golden_patch(P):
    write_summary(P, shifting_sum_range=False)


def near_miss(P):
    # SUMIF written with relative ranges and filled down: later rows lose the first records.
    write_summary(P, shifting_sum_range=True)


def reward(P):
    import re

    path = HOME / P["path"]
    state = {}

    def book():
        if "book" not in state:
            state["book"] = open_book(path)
        return state["book"]

    def summary():
        return find_sheet(book()["f"], P["summary_sheet"])

    def row_of(label):
        ws = summary()
        for row in range(1, ws.max_row + 1):
            if str(ws.cell(row=row, column=1).value or "").strip().casefold() == label.casefold():
                return row
        raise LookupError(f"no row labelled {label!r} in column A of the summary sheet")

    def formula_gives(row, col, expected):
        """A formula over the data sheet whose value (cached or evaluated) is `expected`."""
        ws = summary()
        formula = getattr(ws.cell(row=row, column=col).value, "text", ws.cell(row=row, column=col).value)
        if not is_formula(formula) or P["data_sheet"].casefold() not in str(formula).casefold():
            return False
        return close_to(computed_value(book(), ws.title, row, col), expected)

    @precondition("the data sheet still holds the original records")
    def data_intact():
        ws = find_sheet(book()["f"], P["data_sheet"])
        amounts = [ws.cell(row=r, column=4).value for r in range(2, len(P["rows"]) + 2)]
        return all(close_to(a, r[3], tol=1e-6) for a, r in zip(amounts, P["rows"], strict=True))

    @component("the summary sheet lists the categories alphabetically from A2", 0.15)
    def categories_listed():
        ws = summary()
        listed = [str(ws.cell(row=r + 2, column=1).value or "").strip().casefold()
                  for r in range(len(P["categories"]))]  # fmt: skip
        return sum(a == b.casefold() for a, b in zip(listed, P["categories"], strict=True)) / len(listed)

    @component("each category total is a SUMIF/SUMIFS-style formula with the right value", 0.35)
    def totals():
        hits = [formula_gives(row_of(c), 2, P["totals"][c]) for c in P["categories"]]
        return sum(hits) / len(hits)

    @component("each category count is a COUNTIF-style formula with the right value", 0.2)
    def counts():
        hits = [formula_gives(row_of(c), 3, P["counts"][c]) for c in P["categories"]]
        return sum(hits) / len(hits)

    @component("a Total row below the categories sums the category totals", 0.15)
    def grand_total():
        row = row_of("Total")
        ws = summary()
        formula = ws.cell(row=row, column=2).value
        if row != len(P["categories"]) + 2 or not is_formula(formula):
            return False
        value = computed_value(book(), ws.title, row, 2)
        # judged on its own: the sum of whatever the category rows show, or the true grand total
        shown = [computed_value(book(), ws.title, row_of(c), 2) for c in P["categories"]]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in shown)
        return close_to(value, P["grand_total"]) or (numeric and close_to(value, sum(shown)))

    @component("the totals are formatted as currency with two decimals", 0.15)
    def currency_format():
        ws = summary()
        rows = [row_of(c) for c in P["categories"]] + [row_of("Total")]
        symbol = P["symbol"]

        def is_currency(fmt):
            fmt = str(fmt or "")
            has_symbol = symbol in fmt or P["code"] in fmt.upper()
            return has_symbol and re.search(r"0\.00(?![0#])", fmt) is not None

        return sum(is_currency(ws.cell(row=r, column=2).number_format) for r in rows) / len(rows)


class CategorySummary(Family):
    id = "calc.category_summary"
    apps = ("calc",)
    difficulty = Difficulty.HARD
    leaves = ("calc/formulas/conditional/sumifs_summary", "calc/formulas/conditional/countifs",
              "calc/sheets/manage/insert_sheet", "calc/formulas/references/cross_sheet_refs",
              "calc/formulas/arithmetic/sum_range", "calc/formatting/number/currency_format")  # fmt: skip
    domains = (Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN, Domain.SALES, Domain.SCIENCE, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.SCIENTIFIC)
    helpers = (open_book, find_sheet, is_formula, close_to, computed_value, evaluate_formula, write_summary)
    templates = {
        Wording.IMPERATIVE: "In {file}, add a sheet named \"{summary}\" summarising the {sheet} sheet. Put "
        "the headers Category, Total and Count in A1:C1 and list the {k} categories ({categories}) in "
        "alphabetical order from A2. In column B total the Amount of each category with a SUMIF or SUMIFS "
        "formula, in column C count its transactions with COUNTIF. Below the last category add a row "
        "labelled Total whose column B sums the category totals. Format all totals in column B as "
        "{currency} currency with two decimals, and save the file as xlsx.",
        Wording.REQUEST: "Could you build a \"{summary}\" sheet in {file}? It should have Category / Total / "
        "Count headers in row 1, the categories {categories} listed alphabetically from A2, a SUMIF(S) "
        "formula in B giving each category's total Amount from {sheet}, a COUNTIF formula in C giving how "
        "many rows it has, and right under the list a \"Total\" row adding up column B. Show the totals "
        "as {currency} with 2 decimals and keep it xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I report spending by category every month. {file} has the "
        "raw records on sheet {sheet}. Please add a new sheet \"{summary}\": headers Category, Total, "
        "Count; one row per category ({categories}) in alphabetical order starting at A2; totals of the "
        "Amount column via SUMIF/SUMIFS and transaction counts via COUNTIF, as formulas so they update; "
        "then a Total row directly below with the sum of the category totals. Totals need {currency} "
        "currency format, two decimals. Save as xlsx.",
        Wording.GOAL: "Goal: {file} has a sheet \"{summary}\" with headers Category, Total, Count; rows "
        "2 to {last} hold the categories {categories} alphabetically, each with a SUMIF/SUMIFS formula "
        "for its total Amount on {sheet} (column B) and a COUNTIF formula for its number of records "
        "(column C); row {total_row} is labelled Total with the sum of B2:B{last}. Column B totals "
        "use {currency} currency format with two decimals. Saved as xlsx.",
        Wording.PROBLEM_FIX: "Nobody can see where the money goes in {file}: the {sheet} sheet is just a "
        "long list. Fix it with a \"{summary}\" sheet: Category, Total, Count headers; the categories "
        "{categories} sorted A to Z from A2; SUMIF/SUMIFS formulas totalling Amount per category in B; "
        "COUNTIF formulas counting records in C; a Total row just below summing column B; all totals "
        "formatted as {currency} with two decimals. Save the xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        kind = rng.choice(sorted(LEDGERS))
        sheets, pool, descriptions, (low, high) = LEDGERS[kind]
        categories = sorted(rng.sample(pool, rng.randint(4, 6)))
        n = rng.randint(18, 36)
        # the first record belongs to the alphabetically last category (see near_miss)
        rest = categories * 2 + [rng.choice(categories) for _ in range(n - 1 - 2 * len(categories))]
        rng.shuffle(rest)
        drawn = [categories[-1], *rest]  # the first record is the last category's (see near_miss)
        start = dt.date(rng.randint(2021, 2025), rng.randint(1, 9), 1)
        rows = []
        for i, category in enumerate(drawn):
            date = start + dt.timedelta(days=i * rng.randint(1, 3))
            amount = round(rng.uniform(low, high), 2)
            rows.append([date.isoformat(), category, f"{rng.choice(descriptions)} {rng.randint(100, 999)}", amount])
        code = rng.choice(sorted(CURRENCIES))
        symbol = CURRENCIES[code]
        totals = {c: round(sum(r[3] for r in rows if r[1] == c), 2) for c in categories}
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{start:%Y_%m}_{rng.randint(1, 99)}.xlsx",
            "data_sheet": rng.choice(sheets),
            "summary_sheet": rng.choice(["Summary", "By Category", "Totals"]),
            "rows": rows,
            "categories": categories,
            "totals": totals,
            "counts": {c: drawn.count(c) for c in categories},
            "grand_total": round(sum(r[3] for r in rows), 2),
            "code": code,
            "symbol": symbol,
            "format": f'"{symbol}"#,##0.00' if symbol != "€" else '#,##0.00 "€"',
        }

    def words(self, P: dict) -> dict[str, str]:
        k = len(P["categories"])
        return {"file": "~/" + P["path"], "summary": P["summary_sheet"], "sheet": P["data_sheet"],
                "k": str(k), "categories": ", ".join(P["categories"]), "last": str(k + 1),
                "total_row": str(k + 2), "currency": f"{P['code']} ({P['symbol']})"}  # fmt: skip

    def context(self, P: dict) -> str:
        n = len(P["rows"])
        return (
            f"~/{P['path']} has one sheet {P['data_sheet']!r}: headers Date, Category, Description, Amount "
            f"and {n} records in rows 2..{n + 1}; categories {P['categories']}. Expected new sheet "
            f"{P['summary_sheet']!r}: A1:C1 Category/Total/Count, categories alphabetically in A2.., "
            f"formulas over the data sheet giving totals {P['totals']} and counts {P['counts']}, a 'Total' "
            f"row at row {len(P['categories']) + 2} with {P['grand_total']}, column B in {P['code']} "
            f"currency format with two decimals. The data sheet is unchanged."
        )
