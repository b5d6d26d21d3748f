"""Calc: sort a table by two keys (Data > Sort) without tearing its records apart. Data and wording:
sort_records.yaml.

Both keys are scored on their own: the primary column must be in order, and inside every group of
equal primary values the secondary column must be in the asked direction. A sort that scrambles
records (one column sorted alone) fails the precondition and earns nothing.
"""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import find_sheet, new_table, open_sheet, save_book
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    kind = rng.choice(sorted(pools["schemas"]))
    sheet, headers, groups, (low, high) = pools["schemas"][kind]
    groups = rng.sample(groups, rng.randint(3, len(groups)))
    n = rng.randint(12, 30)
    labels = rng.sample([f"{a} {b}" for a in pools["names"] for b in "ABCDEFGH"], n)
    seconds = rng.sample(range(low, high), n)
    descending = rng.random() < 0.7
    while True:
        members = [groups[i % len(groups)] for i in range(n)]  # every group has >= 3 rows
        rng.shuffle(members)
        rows = [[labels[i], members[i], seconds[i], rng.randint(1, 40)] for i in range(n)]
        keys = [r[1].casefold() for r in rows]
        in_order = all(ordered([r[2] for r in rows if r[1] == g], descending) for g in groups)
        if keys != sorted(keys) and not in_order:  # the initial order earns neither component
            break
    return {
        "path": f"{rng.choice(['Desktop', 'Documents'])}/{kind}_{rng.randint(1000, 9999)}.xlsx",
        "sheet": sheet,
        "headers": headers,
        "rows": rows,
        "primary": 2,
        "secondary": 3,
        "descending": descending,
    }


def ordered(values, descending):
    return all((a >= b) if descending else (a <= b) for a, b in zip(values, values[1:], strict=False))


def initial_setup(P):
    save_book(new_table(P["sheet"], P["headers"], P["rows"]), P["path"])


def solve(P, *, mistake=None):
    wb, ws = open_sheet(P["path"], P["sheet"])
    rows = P["rows"]
    if mistake != "primary_only":
        reverse = P["descending"] != (mistake == "secondary_reversed")
        rows = sorted(rows, key=lambda r: r[P["secondary"] - 1], reverse=reverse)
    rows = sorted(rows, key=lambda r: str(r[P["primary"] - 1]).casefold())  # stable: keeps the tie order
    for i, row in enumerate(rows, start=2):
        for j, value in enumerate(row, start=1):
            ws.cell(row=i, column=j).value = value
    wb.save(HOME / P["path"])


def reward(P):
    import functools

    import openpyxl

    @functools.cache
    def records():
        ws = find_sheet(openpyxl.load_workbook(HOME / P["path"]), P["sheet"])
        rows = ws.iter_rows(
            min_row=2, max_row=len(P["rows"]) + 1, max_col=len(P["headers"]), values_only=True
        )
        return [list(row) for row in rows]

    def primary_keys():
        return [str(r[P["primary"] - 1]).strip().casefold() for r in records()]

    @precondition("every record is intact (rows moved whole, none lost or added)")
    def intact():
        def as_text(rows):  # mixed types: compare as text
            return sorted([str(v) for v in row] for row in rows)

        return as_text(records()) == as_text(P["rows"])

    @component("rows are in ascending order of the first key", 0.5)
    def primary_sorted():
        return ordered(primary_keys(), descending=False)

    @component("within each first-key group the second key runs in the asked direction", 0.5)
    def secondary_sorted():
        groups = {}
        for key, row in zip(primary_keys(), records(), strict=True):
            groups.setdefault(key, []).append(row[P["secondary"] - 1])
        return all(ordered(values, P["descending"]) for values in groups.values())


def demonstrate(P, screen):
    """Calc is open on the sheet: Data > Sort with the cursor in the table (Calc takes the whole
    range and its header), pick both key columns and the second key's direction, OK, save as xlsx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731

    def pick(column):
        """In a focused key list ("- undefined -", then the headers): to the top, then down to `column`."""
        yield [key("up")] * (len(P["headers"]) + 1)
        yield [key("down")] * column

    yield [key("ctrl", "home"), key("alt", "d")]
    item = screen.find(lambda e: "menu-item" in e.role and e.name.startswith("Sort."), what="Data > Sort...")
    yield [{"action": "left_click", "coordinate": list(item.center)}]
    screen.wait_until(lambda: screen.has_window("Sort"), what="the Sort dialog")
    yield [{"action": "wait", "time": 1.0}]  # the dialog takes the focus once it has read the range
    # The dialog's focus order: tabs, key 1's direction, key 1's column, key 2's direction, key 2's column.
    yield [key("tab"), key("tab")]
    yield from pick(P["primary"])
    yield [key("tab"), key("tab")]
    yield from pick(P["secondary"])
    if P["descending"]:
        yield [key("shift", "tab"), key("down")]  # arrows move and select within key 2's radio pair
    ok = screen.find(lambda e: e.role == "push-button" and e.name == "OK", what="the Sort dialog's OK")
    yield [{"action": "left_click", "coordinate": list(ok.center)}]
    screen.wait_until(lambda: not screen.has_window("Sort"), what="the sort to finish")
    yield from save_keeping_format(screen)
