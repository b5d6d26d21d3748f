"""Calc: a per-category summary sheet built with SUMIF(S)/COUNTIF formulas, a grand total and a
currency format (long-horizon: five scored parts). Data and wording: category_summary.yaml."""

import datetime as dt

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import (
    find_sheet,
    formula_shows,
    new_table,
    open_book,
    open_sheet,
    rows_kept,
    save_book,
    total_shown,
)


def draw(rng, pools):
    kind = rng.choice(sorted(pools["ledgers"]))
    sheets, pool, descriptions, (low, high) = pools["ledgers"][kind]
    categories = sorted(rng.sample(pool, rng.randint(4, 6)))
    n = rng.randint(18, 36)
    rest = categories * 2 + [rng.choice(categories) for _ in range(n - 1 - 2 * len(categories))]
    rng.shuffle(rest)
    drawn = [categories[-1], *rest]  # the first record is the last category's (see shifted_ranges)
    start = dt.date(rng.randint(2021, 2025), rng.randint(1, 9), 1)
    rows = []
    for i, category in enumerate(drawn):
        date = start + dt.timedelta(days=i * rng.randint(1, 3))
        amount = round(rng.uniform(low, high), 2)
        rows.append(
            [date.isoformat(), category, f"{rng.choice(descriptions)} {rng.randint(100, 999)}", amount]
        )
    code = rng.choice(sorted(pools["currencies"]))
    symbol = pools["currencies"][code]
    return {
        "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{start:%Y_%m}_{rng.randint(1, 99)}.xlsx",
        "data_sheet": rng.choice(sheets),
        "summary_sheet": rng.choice(["Summary", "By Category", "Totals"]),
        "rows": rows,
        "categories": categories,
        "totals": {c: round(sum(r[3] for r in rows if r[1] == c), 2) for c in categories},
        "counts": {c: drawn.count(c) for c in categories},
        "grand_total": round(sum(r[3] for r in rows), 2),
        "code": code,
        "symbol": symbol,
        "format": f'"{symbol}"#,##0.00' if symbol != "€" else '#,##0.00 "€"',
    }


def initial_setup(P):
    import datetime

    rows = [[datetime.date.fromisoformat(date), *rest] for date, *rest in P["rows"]]
    wb = new_table(P["data_sheet"], ["Date", "Category", "Description", "Amount"], rows)
    ws = wb.active
    for row in ws.iter_rows(min_row=2, min_col=1, max_col=1):
        row[0].number_format = "yyyy-mm-dd"
    for column, width in zip("ABC", (12, 16, 18), strict=True):
        ws.column_dimensions[column].width = width
    save_book(wb, P["path"])


def solve(P, *, mistake=None):
    wb = open_sheet(P["path"], P["data_sheet"])[0]
    ws = wb.create_sheet(P["summary_sheet"])
    data = "'" + P["data_sheet"].replace("'", "''") + "'"
    last = len(P["rows"]) + 1
    ws.append(["Category", "Total", "Count"])
    for i, category in enumerate(P["categories"]):
        row = i + 2
        if mistake == "shifted_ranges":  # relative ranges copied down: each row's range starts one lower
            total = f"=SUMIF({data}!B{2 + i}:B{last + i},A{row},{data}!D{2 + i}:D{last + i})"
        else:
            total = f"=SUMIFS({data}!$D$2:$D${last},{data}!$B$2:$B${last},A{row})"
        ws.append([category, total, f"=COUNTIF({data}!$B$2:$B${last},A{row})"])
    total_row = len(P["categories"]) + 2
    ws.append(["Total", f"=SUM(B2:B{total_row - 1})"])
    for row in range(2, total_row + 1):
        ws.cell(row=row, column=2).number_format = "General" if mistake == "no_currency" else P["format"]
    wb.save(HOME / P["path"])


def reward(P):
    import functools
    import re

    book = functools.cache(lambda: open_book(HOME / P["path"]))
    categories = P["categories"]

    def summary():
        """The summary sheet; None while there is none."""
        wanted = P["summary_sheet"].strip().lower()
        return next((ws for ws in book()["f"].worksheets if ws.title.strip().lower() == wanted), None)

    def rows_of(*labels):
        """The summary sheet's first row labelled with each of `labels` in column A; None unless all are there."""
        ws = summary()
        cells = [ws.cell(row=r, column=1).value for r in range(1, ws.max_row + 1)] if ws else []
        column = [str(value or "").strip().casefold() for value in cells]
        rows = [column.index(label.casefold()) + 1 for label in labels if label.casefold() in column]
        return rows if len(rows) == len(labels) else None

    def formula_gives(row, col, expected):
        """A formula over the data sheet whose value (cached or evaluated) is `expected`."""
        formula = summary().cell(row=row, column=col).value
        over_data = P["data_sheet"].casefold() in str(getattr(formula, "text", formula)).casefold()
        return over_data and formula_shows(book(), P["summary_sheet"], row, col, expected)

    @precondition("the data sheet still holds the original records")
    def data_intact():
        header = ["Date", "Category", "Description", "Amount"]
        return rows_kept(find_sheet(book()["f"], P["data_sheet"]), [header, *P["rows"]], first=1)

    @component("the summary sheet has the headers in A1:C1 and the categories alphabetically from A2", 0.15)
    def categories_listed():
        if summary() is None:
            return 0.0
        cells = [summary().cell(row=1, column=c).value for c in (1, 2, 3)]
        cells += [summary().cell(row=r, column=1).value for r in range(2, len(categories) + 2)]
        listed = [str(value or "").strip().casefold() for value in cells]
        wanted = ["category", "total", "count", *map(str.casefold, categories)]
        return sum(a == b for a, b in zip(listed, wanted, strict=True)) / len(listed)

    def per_category(col, expected):
        rows = rows_of(*categories)
        if rows is None:
            return 0.0
        return sum(formula_gives(r, col, expected[c]) for r, c in zip(rows, categories, strict=True)) / len(
            rows
        )

    @component("each category total is a SUMIF/SUMIFS-style formula with the right value", 0.35)
    def totals():
        return per_category(2, P["totals"])

    @component("each category count is a COUNTIF-style formula with the right value", 0.2)
    def counts():
        return per_category(3, P["counts"])

    @component("a Total row below the categories sums the category totals", 0.15)
    def grand_total():  # judged on its own: the true grand total, or the sum of what the category rows show
        rows = rows_of(*categories, "Total")
        if rows is None or rows[-1] != len(categories) + 2:
            return False
        return total_shown(book(), P["summary_sheet"], rows[-1], 2, rows[:-1], P["grand_total"])

    @component("the totals are formatted as currency with two decimals", 0.15)
    def currency_format():
        def is_currency(fmt):
            fmt = str(fmt or "")
            has_symbol = P["symbol"] in fmt or P["code"] in fmt.upper()
            return has_symbol and re.search(r"0\.00(?![0#])", fmt) is not None

        rows = rows_of(*categories, "Total") or []
        formats = [summary().cell(row=r, column=2).number_format for r in rows]
        return sum(map(is_currency, formats)) / (len(categories) + 1)
