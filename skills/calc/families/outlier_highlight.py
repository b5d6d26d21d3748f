"""Calc: flag out-of-range values with a red background and count them. Data and wording:
outlier_highlight.yaml. Direct fills and conditional formatting both count: the reward resolves the
colour each value cell actually shows, evaluating conditional-format rules itself."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import (
    computed_value,
    evaluate_formula,
    find_sheet,
    formula_shows,
    new_table,
    open_book,
    open_sheet,
    rows_kept,
    save_book,
)


def draw(rng, pools):
    entry = rng.choice(pools["measures"])
    sheet, id_header, measure, unit, direction, (t_lo, t_hi), (n_lo, n_hi), code = entry
    threshold = rng.randint(t_lo, t_hi)
    n = rng.randint(14, 32)
    k = rng.randint(3, 7)
    if direction == ">":
        outliers = [rng.randint(threshold + 1, threshold + max(5, threshold // 3)) for _ in range(k)]
        normals = [rng.randint(min(n_lo, threshold - 1), threshold - 1) for _ in range(n - k - 1)]
    else:
        outliers = [rng.randint(max(0, threshold - max(5, threshold // 3)), threshold - 1) for _ in range(k)]
        normals = [rng.randint(threshold + 1, max(n_hi, threshold + 2)) for _ in range(n - k - 1)]
    values = outliers + normals + [threshold]  # one value sits exactly on the limit
    rng.shuffle(values)
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


def initial_setup(P):
    rows = zip(P["ids"], P["values"], P["checkers"], strict=True)
    wb = new_table(P["sheet"], [P["id_header"], P["measure_header"], "Checked by"], rows)
    wb.active["E1"] = P["count_label"]
    save_book(wb, P["path"])


def solve(P, *, mistake=None):
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill

    wb, ws = open_sheet(P["path"], P["sheet"])
    last, limit, sign = len(P["values"]) + 1, P["threshold"], 1 if P["direction"] == ">" else -1
    if mistake == "inclusive_by_hand":
        for row in range(2, last + 1):
            if (ws.cell(row=row, column=2).value - limit) * sign >= 0:
                ws.cell(row=row, column=2).fill = PatternFill("solid", fgColor="FF0000")
    else:
        operator = "greaterThan" if sign > 0 else "lessThan"
        rule = CellIsRule(operator=operator, formula=[str(limit)], fill=PatternFill(bgColor="FFFFC7CE"))
        ws.conditional_formatting.add(f"B2:B{last}", rule)
    count = sum(v in P["outliers"] for v in P["values"])
    ws["F1"] = count if mistake == "count_typed" else f'=COUNTIF(B2:B{last},"{P["direction"]}{limit}")'
    wb.save(HOME / P["path"])


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
            formulas = [
                Translator("=" + f, origin=origin).translate_formula(coordinate) for f in rule.formula
            ]
            if rule.type == "expression":
                hit = evaluate_formula(book, ws.title, formulas[0])
            else:
                value = computed_value(book, ws.title, row, col)
                bounds = [evaluate_formula(book, ws.title, f) for f in formulas]
                numeric = [
                    v for v in [value, *bounds] if isinstance(v, int | float) and not isinstance(v, bool)
                ]
                if len(numeric) != 1 + len(bounds):
                    continue
                v, b, inside = value, bounds[0], min(bounds) <= value <= max(bounds)
                names = "greaterThan lessThan greaterThanOrEqual lessThanOrEqual equal notEqual between notBetween"
                results = [v > b, v < b, v >= b, v <= b, v == b, v != b, inside, not inside]
                hit = dict(zip(names.split(), results, strict=True))[rule.operator]
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
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (0, 2, 4))
    hue, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
    return (hue <= 20 / 360 or hue >= 340 / 360) and saturation >= 0.3 and 0.15 <= lightness <= 0.95


def reward(P):
    import functools
    import re

    rows = list(range(2, len(P["values"]) + 2))
    outlier_rows = [r for r in rows if P["values"][r - 2] in P["outliers"]]
    normal_rows = [r for r in rows if r not in outlier_rows]
    book = functools.cache(lambda: open_book(HOME / P["path"]))
    sheet = functools.cache(lambda: find_sheet(book()["f"], P["sheet"]))
    red_rows = functools.cache(lambda: {r for r in rows if is_red(shown_fill(book(), sheet(), r, 2))})

    @precondition("the table and the count's label are unchanged")
    def values_intact():
        header = [P["id_header"], P["measure_header"], "Checked by", None, P["count_label"]]
        return rows_kept(sheet(), [header, *zip(P["ids"], P["values"], P["checkers"], strict=True)], 1)

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
        refers_to_b = re.search(r"\$?B\$?\d", str(sheet()["F1"].value).upper()) is not None
        return refers_to_b and formula_shows(book(), P["sheet"], 1, 6, len(outlier_rows))
