"""Calc: show a column of ratios as percentages with a set number of decimals. Data and wording:
percent_format.yaml.

The values must stay ratios (0.153 shown as 15.3%); typing 15.3 over them is a different task and
fails the precondition. Calc's "Format as Percent" button gives 0.00%, the realistic near miss.
"""

from skills.calc.families._gui import go_to
from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import find_sheet, new_table, open_sheet, rows_kept, save_book
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    kind = rng.choice(sorted(pools["tables"]))
    sheet, label_header, ratio_header, pool = pools["tables"][kind]
    labels = rng.sample(pool, rng.randint(6, len(pool)))
    counts = [rng.randint(40, 900) for _ in labels]
    ratios = [round(rng.uniform(0.02, 0.98), 4) for _ in labels]
    ratio_col = rng.choice([2, 3])
    other = rng.choice(pools["others"])
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


def table(P):
    """The sheet's rows under the header: label, count and ratio in the drawn column order."""
    rows = zip(P["labels"], P["counts"], P["ratios"], strict=True)
    return [
        [label, count, ratio] if P["ratio_col"] == 3 else [label, ratio, count]
        for label, count, ratio in rows
    ]


def initial_setup(P):
    save_book(new_table(P["sheet"], P["headers"], table(P)), P["path"])


def solve(P, *, mistake=None):
    wb, ws = open_sheet(P["path"], P["sheet"])
    code = "0.00%" if mistake == "toolbar_percent" else f"{0:.{P['decimals']}f}%"
    for row in range(2, len(P["ratios"]) + (1 if mistake == "last_row_missed" else 2)):
        ws.cell(row=row, column=P["ratio_col"]).number_format = code
    wb.save(HOME / P["path"])


def reward(P):
    import functools
    import re

    import openpyxl

    rows = range(2, len(P["ratios"]) + 2)
    sheet = functools.cache(lambda: find_sheet(openpyxl.load_workbook(HOME / P["path"]), P["sheet"]))

    def codes():
        """The positive-number section of each ratio cell's format code, without quoted text and [..] tags."""
        formats = [sheet().cell(row=r, column=P["ratio_col"]).number_format for r in rows]
        return [re.sub(r'"[^"]*"|\[[^\]]*\]|\\.', "", str(code or "").split(";")[0]) for code in formats]

    @precondition("the table is unchanged (the ratios still fractions, not retyped numbers)")
    def values_intact():
        return rows_kept(sheet(), [P["headers"], *table(P)], first=1)

    @component("the ratio cells are formatted as percentages", 0.6)
    def is_percent():
        return sum("%" in code for code in codes()) / len(rows)

    @component("the percentages show exactly the asked number of decimals", 0.4)
    def decimals():
        def places(code):
            match = re.search(r"[0#?](?:\.([0#?]*))?\s*%", code)
            return len(match.group(1) or "") if match else None

        return sum(places(code) == P["decimals"] for code in codes()) / len(rows)


def demonstrate(P, screen):
    """Calc is open on the sheet: select the ratio cells, Format Cells (Ctrl+1) > Numbers, type the
    percent format code, OK, save keeping xlsx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    yield from go_to(screen, P["ratio_col"], 2)
    yield [key("shift", "ctrl", "down")]  # the ratios have no gaps
    yield [key("ctrl", "1")]
    screen.wait_until(lambda: screen.has_window("Format Cells"), what="the Format Cells dialog")
    tab = screen.find(lambda e: e.role == "page-tab" and e.name == "Numbers", what="the Numbers tab")
    yield [{"action": "left_click", "coordinate": list(tab.center)}]
    label = screen.find(lambda e: e.role == "label" and e.name == "Format Code", what="the Format Code label")
    field = screen.find(
        lambda e: e.role == "text" and label.y < e.y < label.y + 80 and e.x >= label.x - 20,
        what="the format code field",
    )
    code = "0" + ("." + "0" * P["decimals"] if P["decimals"] else "") + "%"
    yield [
        {"action": "left_click", "coordinate": list(field.center)},
        key("ctrl", "a"),
        {"action": "type", "text": code},
    ]
    ok = screen.find(
        lambda e: e.role == "push-button" and e.name == "OK" and e.y > field.y, what="the OK button"
    )
    yield [{"action": "left_click", "coordinate": list(ok.center)}]
    screen.wait_until(lambda: not screen.has_window("Format Cells"), what="the dialog to close")
    yield from save_keeping_format(screen)
