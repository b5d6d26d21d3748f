"""Calc: bold the header row and freeze it (and maybe column A). Data and wording: freeze_header.yaml.

Easy: three atomic actions (select row 1, bold, View > Freeze Cells). The pane is judged by its
split counts, never by its top-left cell, which only says where the user had scrolled.
"""

from skills.calc.families._gui import go_to
from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import find_sheet, new_table, open_sheet, rows_kept, save_book
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    kind = rng.choice(sorted(pools["tables"]))
    sheet, headers = pools["tables"][kind]
    headers = headers[: rng.randint(7, len(headers))]
    words = pools["words"]
    rows = []
    for i in range(rng.randint(40, 120)):
        label = f"{rng.choice(words).title()} {i + 1}"
        cells = [rng.randint(0, 500) if rng.random() < 0.7 else rng.choice(words) for _ in headers[1:]]
        rows.append([label, *cells])
    return {
        "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{rng.randint(100, 999)}.xlsx",
        "sheet": sheet,
        "headers": headers,
        "rows": rows,
        "freeze_column": rng.random() < 0.5,
    }


def initial_setup(P):
    save_book(new_table(P["sheet"], P["headers"], P["rows"], bold=False), P["path"])


def solve(P, *, mistake=None):
    from openpyxl.styles import Font

    wb, ws = open_sheet(P["path"], P["sheet"])
    for cell in ws[1]:
        cell.font = Font(bold=mistake != "not_bold")
    ws.freeze_panes = ("B" if P["freeze_column"] else "A") + ("3" if mistake == "two_rows_frozen" else "2")
    wb.save(HOME / P["path"])


def reward(P):
    import functools

    import openpyxl

    sheet = functools.cache(lambda: find_sheet(openpyxl.load_workbook(HOME / P["path"]), P["sheet"]))

    @precondition("the table is unchanged, header first")
    def table_intact():
        return rows_kept(sheet(), [P["headers"], *P["rows"]], first=1)

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


def demonstrate(P, screen):
    """Calc is open on the sheet: bold A1 through the last header, put the cursor just below (and
    right of) what must stay pinned, View > Freeze Rows and Columns, save keeping xlsx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    yield [key("ctrl", "home"), key("shift", "ctrl", "right"), key("ctrl", "b")]  # the headers are contiguous
    # Freezing pins the rows above and the columns left of the cursor: A2 -> row 1, B2 -> row 1 and column A.
    yield from go_to(screen, 2 if P["freeze_column"] else 1, 2)
    yield [key("alt", "v")]
    item = screen.find(
        lambda e: "menu-item" in e.role and e.name == "Freeze Rows and Columns",
        what="View > Freeze Rows and Columns",
    )
    yield [{"action": "left_click", "coordinate": list(item.center)}]
    yield from save_keeping_format(screen)
