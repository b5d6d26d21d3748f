"""Calc: pad numeric IDs with a TEXT formula in B2 and fill it down. Data and wording: padded_ids.yaml."""

from skills.calc.families._gui import go_to
from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import rows_kept
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    kind = rng.choice(sorted(pools["sheets"]))
    n = rng.randint(5, 12)
    width = rng.randint(5, 8)
    ids = rng.sample(range(1, 10 ** (width - 2)), n)
    return {
        "kind": kind,
        "sheet": pools["sheets"][kind],
        "path": f"Desktop/{kind}_ids_{rng.randint(100, 999)}.xlsx",
        "id_header": f"{kind.title()} No",
        "padded_header": f"{kind.title()} Code",
        "width": width,
        "ids": ids,
        "names": [rng.choice(pools["first_names"]) for _ in ids],
    }


def initial_setup(P):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append([P["id_header"], P["padded_header"], "Name"])
    for number, name in zip(P["ids"], P["names"], strict=True):
        ws.append([number, None, name])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def solve(P, *, mistake=None):
    import openpyxl

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    zeros = "0" * P["width"]
    for row in range(2, len(P["ids"]) + 2):
        source = "$A$2" if mistake == "absolute_refs" else f"A{row}"
        ws.cell(row=row, column=2).value = f'=TEXT({source},"{zeros}")'
    wb.save(path)


def reward(P):
    import re

    import openpyxl

    path = HOME / P["path"]
    rows = list(range(2, len(P["ids"]) + 2))
    book = {}

    def sheet(data_only=False):
        key = "values" if data_only else "formulas"
        if key not in book:
            book[key] = openpyxl.load_workbook(path, data_only=data_only)[P["sheet"]]
        return book[key]

    def pads_correctly(row):
        """B<row> is a formula that zero-pads some A cell to P['width'] digits."""
        formula = sheet().cell(row=row, column=2).value
        if not isinstance(formula, str) or not formula.startswith("="):
            return False
        compact = formula.upper().replace(" ", "").replace(";", ",")
        text_ok = re.search(r'TEXT\(\$?A\$?\d+,"0{' + str(P["width"]) + r'}"\)', compact) is not None
        rept_ok = re.search(r"RIGHT\(.*\$?A\$?\d+.*," + str(P["width"]) + r"\)", compact) is not None
        cached = sheet(data_only=True).cell(row=row, column=2).value
        expected = str(P["ids"][row - 2]).zfill(P["width"])
        return text_ok or rept_ok or cached == expected

    def references_own_row(row):
        formula = sheet().cell(row=row, column=2).value or ""
        refs = re.findall(r"\$?A\$?(\d+)", str(formula).upper())
        return pads_correctly(row) and refs == [str(row)]

    @precondition("the ID column still holds the original numbers, and the names are unchanged")
    def ids_intact():
        records = [[number, None, name] for number, name in zip(P["ids"], P["names"], strict=True)]
        return rows_kept(sheet(), [[P["id_header"], None, "Name"], *records], first=1, cols=(1, 3))

    @component("B2 pads A2 with a TEXT formula", 0.4)
    def first_cell():
        return references_own_row(2)

    @component("the formula is filled down through the last row", 0.3)
    def propagated():
        return sum(pads_correctly(r) for r in rows[1:]) / len(rows[1:])

    @component("every row refers to its own A cell", 0.3)
    def relative_refs():
        return sum(references_own_row(r) for r in rows[1:]) / len(rows[1:])


def demonstrate(P, screen):
    """Calc is open on the workbook: go to B2, type one TEXT formula per row, save keeping xlsx."""
    zeros = "0" * P["width"]
    yield from go_to(screen, 2, 2)
    for row in range(2, len(P["ids"]) + 2):
        yield [{"action": "type", "text": f'=TEXT(A{row};"{zeros}")\n'}]
    yield from save_keeping_format(screen)
