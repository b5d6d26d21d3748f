"""Cross-app (Calc -> Writer): compute line totals and a grand total in a cost sheet, then carry the
total into a Writer report's sentence and the per-item amounts into a Writer table. Four
independently scored parts. Data and wording: total_to_report.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.docs import add_table, open_doc, save_doc, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import (
    close_to,
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
    project = rng.choice(sorted(pools["projects"]))
    names = rng.sample(pools["projects"][project], rng.randint(5, 9))
    items = [[name, rng.randint(2, 40), round(rng.uniform(1.5, 900), 2)] for name in names]
    line_totals = [round(q * p, 2) for _, q, p in items]
    symbol = rng.choice(["$", "€", "£"])
    stem = project.replace(" ", "_")
    tag = rng.randint(10, 99)
    sentence = rng.choice(pools["sentences"]).replace("{project}", project)
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
        "author": rng.choice(pools["authors"]),
        "sentence": sentence,
        "placeholder": rng.choice(pools["placeholders"]),
    }


def kept_lines(P):
    """The report's paragraphs the task leaves alone: title, byline, caption and closing line (the
    placeholder sentence goes under the byline)."""
    closing = "Please contact the author with any questions about these figures."
    return [P["title"], f"Prepared by {P['author']}.", "Itemised costs:", closing]


def initial_setup(P):
    import docx

    header = ["Item", "Quantity", "Unit price", "Line total"]
    wb = new_table(P["sheet"], header, [[*item, None] for item in P["items"]])
    wb.active.column_dimensions["A"].width = 20
    save_book(wb, P["xlsx"])
    doc = docx.Document()
    title, byline, *rest = kept_lines(P)
    doc.add_heading(title, level=1)
    for text in (byline, P["sentence"].replace("{total}", P["placeholder"]), *rest):
        doc.add_paragraph(text)
    save_doc(doc, P["docx"])


def solve(P, *, mistake=None):
    wb, ws = open_sheet(P["xlsx"], P["sheet"])
    last = len(P["items"]) + 1
    for row in range(2, last + 1):
        ws.cell(row=row, column=4).value = f"=B{row}*C{row}"
    ws.cell(row=last + 1, column=3).value = "Total"
    ws.cell(row=last + 1, column=4).value = f"=SUM(D2:D{last})"
    wb.save(HOME / P["xlsx"])

    doc = open_doc(P["docx"])
    total = P["placeholder"] if mistake == "placeholder_kept" else f"{P['symbol']}{P['total']:,.2f}"
    for run in (run for paragraph in doc.paragraphs for run in paragraph.runs):
        run.text = run.text.replace(P["placeholder"], total)
    amounts = P["line_totals"] if mistake != "unit_prices" else [price for _, _, price in P["items"]]
    rows = [[name, f"{amount:,.2f}"] for (name, _, _), amount in zip(P["items"], amounts, strict=True)]
    table = add_table(doc, rows)  # one row per item, as asked: no header row
    anchor = [p for p in doc.paragraphs if p.text.startswith("Itemised costs")][0]
    anchor._p.addnext(table._tbl)  # the table goes right under its caption
    save_doc(doc, P["docx"])


def numbers_in(text):
    """Every number written in `text`, reading 12,345.67 / 12.345,67 / 12 345.67 / 12345.67 alike."""
    import re

    found = []
    for token in re.findall(r"\d[\d.,'\u00a0\u202f]*\d|\d", text):
        token = re.sub(r"['\u00a0\u202f]", "", token)
        last_sep = max(token.rfind(","), token.rfind("."))
        if last_sep >= 0 and len(token) - last_sep - 1 != 3:  # a decimal separator
            token = re.sub(r"[.,]", "", token[:last_sep]) + "." + token[last_sep + 1 :]
        else:  # only thousands separators
            token = re.sub(r"[.,]", "", token)
        try:
            found.append(float(token))
        except ValueError:
            continue
    return found


def reward(P):
    import functools

    last = len(P["items"]) + 1
    book = functools.cache(lambda: open_book(HOME / P["xlsx"]))
    document = functools.cache(lambda: open_doc(P["docx"]))

    def squash(text):
        return " ".join(text.split()).casefold()

    @precondition("the cost sheet's header, items, quantities and prices are unchanged")
    def items_intact():
        header = ["Item", "Quantity", "Unit price", "Line total"]
        return rows_kept(find_sheet(book()["f"], P["sheet"]), [header, *P["items"]], first=1)

    @precondition("the report keeps its title, byline, caption and closing line")
    def report_intact():
        return texts_kept(document(), kept_lines(P))

    @component("column D holds a Quantity x Unit price formula for every item", 0.25)
    def line_totals():
        hits = [formula_shows(book(), P["sheet"], r, 4, P["line_totals"][r - 2]) for r in range(2, last + 1)]
        return sum(hits) / len(hits)

    @component("the row under the items is labelled Total and sums the line totals with a formula", 0.15)
    def grand_total():
        ws = find_sheet(book()["f"], P["sheet"])
        label = str(ws.cell(row=last + 1, column=3).value).strip().casefold() == "total"
        return (label + total_shown(book(), P["sheet"], last + 1, 4, range(2, last + 1), P["total"])) / 2

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

        def lists(name, line):
            """Some row holds the item's name and, in another cell, its line total."""
            key = squash(name)
            others = [cell for row in rows if key in map(squash, row) for cell in row if squash(cell) != key]
            return any(close_to(n, line) for cell in others for n in numbers_in(cell))

        items = zip(P["items"], P["line_totals"], strict=True)
        return sum(lists(name, line) for (name, _, _), line in items) / len(P["items"])
