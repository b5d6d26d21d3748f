"""Calc: flag out-of-range values with a red background and count them (paper appendix E.1.4's
"formatting outliers"). Direct fills and conditional formatting both count: the reward resolves the
colour each value cell actually shows, evaluating conditional-format rules itself."""

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
from tasks.models import Difficulty, Domain, Scenario, Wording

# (sheet, id header, measure header, unit, direction, threshold range, normal range, domain)
MEASURES = [
    ("Readings", "Sensor", "Temperature", "°C", ">", (38, 45), (18, 37)),
    ("Deliveries", "Shipment", "Transit time", "hours", ">", (48, 96), (6, 47)),
    ("Invoices", "Invoice", "Amount", "USD", ">", (5000, 9000), (120, 4999)),
    ("Scores", "Student", "Score", "points", "<", (40, 55), (56, 100)),
    ("Stock", "SKU", "Units on hand", "units", "<", (8, 20), (21, 400)),
    ("Assays", "Sample", "Purity", "%", "<", (90, 95), (96, 100)),
    ("Calls", "Agent", "Handle time", "seconds", ">", (600, 900), (60, 599)),
]
CODES = ["TMP", "SHP", "INV", "STU", "SKU", "SMP", "AGT"]


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append([P["id_header"], P["measure_header"], "Checked by"])
    for ident, value, checker in zip(P["ids"], P["values"], P["checkers"], strict=True):
        ws.append([ident, value, checker])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws["E1"] = P["count_label"]
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def golden_patch(P):
    import openpyxl
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    last = len(P["values"]) + 1
    operator = "greaterThan" if P["direction"] == ">" else "lessThan"
    rule = CellIsRule(operator=operator, formula=[str(P["threshold"])], fill=PatternFill(bgColor="FFFFC7CE"))
    ws.conditional_formatting.add(f"B2:B{last}", rule)
    ws["F1"] = f'=COUNTIF(B2:B{last},"{P["direction"]}{P["threshold"]}")'
    wb.save(path)


def near_miss(P):
    # Highlighted by hand with an inclusive test: the value sitting exactly on the limit turns red too.
    import openpyxl
    from openpyxl.styles import PatternFill

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    last = len(P["values"]) + 1
    for row in range(2, last + 1):
        value = ws.cell(row=row, column=2).value
        if (value >= P["threshold"]) if P["direction"] == ">" else (value <= P["threshold"]):
            ws.cell(row=row, column=2).fill = PatternFill("solid", fgColor="FF0000")
    ws["F1"] = f'=COUNTIF(B2:B{last},"{P["direction"]}{P["threshold"]}")'
    wb.save(path)


def shown_fill(book, ws, row, col):
    """RRGGBB of the background a cell shows: a matching conditional-format rule wins over a direct fill."""
    from openpyxl.formula.translate import Translator
    from openpyxl.styles.colors import COLOR_INDEX
    from openpyxl.utils import get_column_letter

    def rgb(color):
        if color is None:
            return None
        if color.type == "rgb" and isinstance(color.rgb, str) and color.rgb not in ("00000000",):
            return color.rgb[-6:].upper()  # ARGB; a 6-digit colour set in openpyxl gets alpha 00
        if color.type == "indexed" and isinstance(color.indexed, int) and color.indexed < len(COLOR_INDEX):
            return COLOR_INDEX[color.indexed][-6:].upper() if color.indexed < 64 else None
        return None

    coordinate = f"{get_column_letter(col)}{row}"
    matches = []
    for cf in ws.conditional_formatting:
        if not any(coordinate in area for area in cf.sqref.ranges):
            continue
        origin = next(iter(cf.sqref.ranges)).coord.split(":")[0]
        for rule in cf.rules:
            fill = rule.dxf.fill if rule.dxf is not None else None
            color = (rgb(fill.bgColor) or rgb(fill.fgColor)) if fill is not None else None
            if color is None or rule.type not in ("cellIs", "expression"):
                continue
            formulas = [Translator("=" + f, origin=origin).translate_formula(coordinate) for f in rule.formula]
            if rule.type == "expression":
                hit = evaluate_formula(book, ws.title, formulas[0])
            else:
                value = computed_value(book, ws.title, row, col)
                bounds = [evaluate_formula(book, ws.title, f) for f in formulas]
                numeric = [v for v in [value, *bounds] if isinstance(v, int | float) and not isinstance(v, bool)]
                if len(numeric) != 1 + len(bounds):
                    continue
                low, high = min(bounds), max(bounds)
                hit = {"greaterThan": value > bounds[0], "lessThan": value < bounds[0],
                       "greaterThanOrEqual": value >= bounds[0], "lessThanOrEqual": value <= bounds[0],
                       "equal": value == bounds[0], "notEqual": value != bounds[0],
                       "between": low <= value <= high, "notBetween": not low <= value <= high}[rule.operator]  # fmt: skip
            if hit:
                matches.append((rule.priority or 0, color))
    if matches:
        return min(matches)[1]
    fill = ws.cell(row=row, column=col).fill
    if fill is not None and fill.fill_type == "solid":
        return rgb(fill.fgColor)
    return None


def is_red(color):
    """A red-hued colour: pure red, Calc's "Bad" style pink, dark red; not orange, not grey."""
    import colorsys

    if not color:
        return False
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (0, 2, 4))
    hue, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
    return (hue <= 20 / 360 or hue >= 340 / 360) and saturation >= 0.3 and 0.15 <= lightness <= 0.95


def reward(P):
    import re

    path = HOME / P["path"]
    rows = list(range(2, len(P["values"]) + 2))
    outlier_rows = [r for r in rows if P["values"][r - 2] in P["outliers"]]
    normal_rows = [r for r in rows if r not in outlier_rows]
    state = {}

    def book():
        if "book" not in state:
            state["book"] = open_book(path)
        return state["book"]

    def red_rows():
        if "red" not in state:
            ws = find_sheet(book()["f"], P["sheet"])
            state["red"] = {r for r in rows if is_red(shown_fill(book(), ws, r, 2))}
        return state["red"]

    @precondition("the measured values are unchanged")
    def values_intact():
        ws = find_sheet(book()["f"], P["sheet"])
        return [ws.cell(row=r, column=2).value for r in rows] == P["values"]

    @component("every out-of-range value has a red background", 0.4)
    def outliers_red():
        return len(red_rows() & set(outlier_rows)) / len(outlier_rows)

    @component("no in-range value is red (once anything is highlighted)", 0.3)
    def normals_plain():
        if not red_rows():
            return 0.0
        return sum(r not in red_rows() for r in normal_rows) / len(normal_rows)

    @component("F1 counts the out-of-range values with a formula", 0.3)
    def count_cell():
        ws = find_sheet(book()["f"], P["sheet"])
        if not is_formula(ws["F1"].value) or not re.search(r"\$?B\$?\d", str(ws["F1"].value).upper()):
            return False
        return close_to(computed_value(book(), ws.title, 1, 6), len(outlier_rows))


class OutlierHighlight(Family):
    id = "calc.outlier_highlight"
    apps = ("calc",)
    difficulty = Difficulty.MEDIUM
    leaves = ("calc/formatting/conditional/highlight_rule", "calc/formatting/fill/cell_background",
              "calc/formulas/conditional/countifs")  # fmt: skip
    domains = (Domain.SCIENCE, Domain.HEALTHCARE, Domain.TRANSPORTATION, Domain.EDUCATION,
               Domain.BUSINESS_FINANCE, Domain.PRODUCTION)  # fmt: skip
    scenarios = (Scenario.SCIENTIFIC, Scenario.COMMERCIAL, Scenario.EDUCATIONAL)
    helpers = (open_book, find_sheet, is_formula, close_to, computed_value, evaluate_formula, shown_fill, is_red)
    templates = {
        Wording.IMPERATIVE: "In {file}, give every {measure} in B2:B{last} that is {test} a red "
        "background (values exactly {threshold} are not flagged) and leave the other values unfilled. "
        "Then put a formula in F1 that counts those flagged values. Save the file as xlsx.",
        Wording.REQUEST: "Could you mark the {measure} values {test} in red in {file}? Only cells in "
        "B2:B{last} that are strictly {test} should get a red background, nothing else; a value equal "
        "to {threshold} stays plain. Also add a formula in F1 (next to the label in E1) counting how many "
        "there are, and save it as xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I review the {sheet} sheet in {file} every week. Anything "
        "{test} needs to stand out: give those {measure} cells (column B, rows 2 to {last}) a red fill, "
        "conditional formatting is fine, and keep in-range values, including exactly {threshold}, without "
        "fill. F1 should hold a formula with the number of flagged values. Save as xlsx.",
        Wording.GOAL: "Goal: in {file}, exactly the cells of B2:B{last} whose {measure} is {test} show "
        "a red background (a value equal to {threshold} is in range), and F1 holds a formula whose "
        "result is the number of such cells. The file is saved as xlsx.",
        Wording.PROBLEM_FIX: "Out-of-range {measure} values in {file} keep getting missed. Fix it: "
        "every value in B2:B{last} strictly {test_short} {threshold} must have a red background and no "
        "in-range value may (the limit {threshold} itself is in range); add a formula in F1 that counts "
        "the out-of-range values. Save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        index = rng.randrange(len(MEASURES))
        sheet, id_header, measure, unit, direction, (t_low, t_high), (n_low, n_high) = MEASURES[index]
        threshold = rng.randint(t_low, t_high)
        n = rng.randint(14, 32)
        k = rng.randint(3, 7)
        if direction == ">":
            outliers = [rng.randint(threshold + 1, threshold + max(5, threshold // 3)) for _ in range(k)]
            normals = [rng.randint(min(n_low, threshold - 1), threshold - 1) for _ in range(n - k - 1)]
        else:
            outliers = [rng.randint(max(0, threshold - max(5, threshold // 3)), threshold - 1) for _ in range(k)]
            normals = [rng.randint(threshold + 1, max(n_high, threshold + 2)) for _ in range(n - k - 1)]
        values = outliers + normals + [threshold]  # one value sits exactly on the limit
        rng.shuffle(values)
        code = CODES[index]
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{sheet.lower()}_{rng.randint(1, 52):02d}.xlsx",
            "sheet": sheet,
            "id_header": id_header,
            "measure_header": f"{measure} ({unit})",
            "measure": measure.lower(),
            "direction": direction,
            "threshold": threshold,
            "values": values,
            "outliers": sorted(set(outliers)),
            "ids": [f"{code}-{i:03d}" for i in rng.sample(range(1, 999), n)],
            "checkers": [rng.choice(["AK", "BL", "CM", "DN", "EO"]) for _ in range(n)],
            "count_label": rng.choice(["Flagged", "Out of range", "Outliers"]),
        }

    def words(self, P: dict) -> dict[str, str]:
        above = P["direction"] == ">"
        test = f"{'above' if above else 'below'} {P['threshold']}"
        return {"file": "~/" + P["path"], "measure": P["measure"], "sheet": P["sheet"],
                "last": str(len(P["values"]) + 1), "threshold": str(P["threshold"]), "test": test,
                "test_short": "above" if above else "below"}  # fmt: skip

    def context(self, P: dict) -> str:
        last = len(P["values"]) + 1
        return (
            f"~/{P['path']} sheet {P['sheet']!r}: headers ({P['id_header']}, {P['measure_header']}, Checked by), "
            f"values B2:B{last} = {P['values']} (one equals the limit {P['threshold']}), label in E1, no fills. "
            f"Expected: exactly the values {P['direction']} {P['threshold']} ({P['outliers']}) show a red "
            f"background (conditional or direct); F1 is a formula evaluating to "
            f"{sum(v in P['outliers'] for v in P['values'])}."
        )
