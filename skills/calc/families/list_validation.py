"""Calc: restrict a status column to a fixed list of entries and make Calc reject anything else. Data
and wording: list_validation.yaml. The allowed list, the covered range and the error alert are scored apart.
"""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import find_sheet, new_table, open_sheet, rows_kept, save_book
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    kind = rng.choice(sorted(pools["trackers"]))
    sheet, headers, column, pool, prefix = pools["trackers"][kind]
    allowed = pool[: rng.randint(3, len(pool))]
    n = rng.randint(12, 40)
    rows = []
    for i in rng.sample(range(100, 999), n):
        person, date = rng.choice(pools["people"]), f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        rows.append([f"{prefix}-{i}", person, date, rng.choice(allowed) if rng.random() < 0.6 else None])
    return {
        "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_tracker_{rng.randint(1, 99)}.xlsx",
        "sheet": sheet,
        "headers": [*headers, column],
        "column": column,
        "allowed": allowed,
        "rows": rows,
    }


def initial_setup(P):
    import datetime

    rows = [[ident, who, datetime.date.fromisoformat(date), value] for ident, who, date, value in P["rows"]]
    wb = new_table(P["sheet"], P["headers"], rows)
    for row in wb.active.iter_rows(min_row=2, min_col=3, max_col=3):
        row[0].number_format = "yyyy-mm-dd"
    save_book(wb, P["path"])


def solve(P, *, mistake=None):
    from openpyxl.worksheet.datavalidation import DataValidation

    wb, ws = open_sheet(P["path"], P["sheet"])
    inline = '"' + ",".join(P["allowed"]) + '"'
    style = "warning" if mistake == "no_error_alert" else "stop"
    rule = DataValidation("list", formula1=inline, allow_blank=True, showErrorMessage=True, errorStyle=style)
    rule.add(f"D2:D{len(P['rows']) - 3 if mistake == 'rows_short' else len(P['rows']) + 1}")
    ws.add_data_validation(rule)
    wb.save(HOME / P["path"])


def reward(P):
    import functools

    import openpyxl
    from openpyxl.utils import range_boundaries

    last = len(P["rows"]) + 1
    wanted = sorted(v.casefold() for v in P["allowed"])
    book = functools.cache(lambda: openpyxl.load_workbook(HOME / P["path"]))

    def entries(rule):
        """The values a list validation allows: an inline "a,b,c" list or a cell range."""
        source = str(rule.formula1 or "").strip()
        if source.startswith('"'):
            return [v.strip() for v in source.strip('"').replace(";", ",").split(",") if v.strip()]
        source = source.removeprefix("=")
        target, ref = source.rsplit("!", 1) if "!" in source else (P["sheet"], source)
        ws = find_sheet(book(), target.strip("'").replace("''", "'"))
        c0, r0, c1, r1 = range_boundaries(ref.replace("$", ""))
        values = [ws.cell(row=r, column=c).value for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        return [str(v).strip() for v in values if v not in (None, "")]

    def list_rules():
        """Validations on the sheet that allow exactly the asked entries."""
        ws = find_sheet(book(), P["sheet"])
        rules = [r for r in ws.data_validations.dataValidation if r.type == "list"]
        return [r for r in rules if sorted(v.casefold() for v in entries(r)) == wanted]

    def covered_rows(rules):
        rows = set()
        for area in (area for rule in rules for area in rule.sqref.ranges):
            c0, r0, c1, r1 = range_boundaries(area.coord)
            if c0 <= 4 <= c1:
                rows |= set(range(max(r0, 2), min(r1, last) + 1))
        return rows

    @precondition("the records are unchanged")
    def records_intact():
        return rows_kept(find_sheet(book(), P["sheet"]), [P["headers"], *P["rows"]], first=1)

    @component("a list validation allows exactly the asked entries on the column", 0.45)
    def allowed_list():
        return bool(covered_rows(list_rules()))

    @component("the validation covers every record row of the column", 0.35)
    def coverage():
        return len(covered_rows(list_rules())) / (last - 1)

    @component("invalid input is rejected with an error message (Stop)", 0.2)
    def error_alert():
        stops = [r for r in list_rules() if r.showErrorMessage and r.errorStyle in (None, "stop")]
        return bool(covered_rows(stops))


def demonstrate(P, screen):
    """Calc is open on the sheet: select the column's record cells through the Name Box, Data >
    Validity, Allow: List with one entry per line, make sure the Error Alert is a shown Stop, OK,
    save keeping xlsx."""
    import re

    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    click = lambda element: {"action": "left_click", "coordinate": list(element.center)}  # noqa: E731
    name_box = screen.find(
        lambda e: e.role == "text" and re.fullmatch(r"[A-Z]+\d+(:[A-Z]+\d+)?", e.text), what="the Name Box"
    )
    # The column has blanks, so Ctrl+Shift+Down would stop short: name the range instead.
    yield [click(name_box), key("ctrl", "a"), {"action": "type", "text": f"D2:D{len(P['rows']) + 1}\n"}]
    yield [key("alt", "d")]
    item = screen.find(
        lambda e: "menu-item" in e.role and e.name.startswith("Validity"), what="Data > Validity..."
    )
    yield [click(item)]
    screen.wait_until(lambda: screen.has_window("Validity"), what="the Validity dialog")
    yield [{"action": "wait", "time": 1.0}]  # the dialog takes the focus on its tabs
    # Tab reaches the Allow list; "List" is its 7th entry (All values, Whole Numbers, Decimal, Date,
    # Time, Cell range, List, ...): to the top first, then down.
    yield [key("tab"), *[key("up")] * 9]
    yield [key("down")] * 6
    label = screen.find(
        lambda e: e.role == "label" and e.name == "Entries", what="the Entries box (Allow: List)"
    )
    entries = screen.find(
        lambda e: e.role == "text" and e.x > label.x and e.y <= label.y + label.h // 2 <= e.y + e.h,
        what="the Entries box",
    )
    yield [click(entries), {"action": "type", "text": "\n".join(P["allowed"])}]  # one entry per line
    tab = screen.find(lambda e: e.role == "page-tab" and e.name == "Error Alert", what="the Error Alert tab")
    yield [click(tab)]
    show = "Show error message when invalid values are entered"
    box = screen.find(lambda e: e.role == "check-box" and e.name == show, what="the show-error check box")
    checked = re.search(r'<check-box name="' + show + r'"[^>]*st:checked="true"', screen.accessibility_tree())
    if not checked:
        yield [click(box)]
    # The Action list already says Stop (Calc's default), which is what the task asks.
    ok = screen.find(lambda e: e.role == "push-button" and e.name == "OK", what="the Validity dialog's OK")
    yield [click(ok)]
    screen.wait_until(lambda: not screen.has_window("Validity"), what="the dialog to close")
    yield from save_keeping_format(screen)
