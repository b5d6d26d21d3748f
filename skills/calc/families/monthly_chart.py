"""Calc: a titled column chart of twelve monthly figures (paper appendix E.5, chart introspection).

The table has a second metric and a Total row under December, so the range is a real choice: the
chart must plot one column over exactly the twelve months. Charts are read straight from the
chart XML in the .xlsx (stdlib only), which is how LibreOffice and openpyxl both store them.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]  # fmt: skip
# (metric, unit, companion metric, low, high): the companion column is the distractor
METRICS = [
    ("Revenue", "EUR", "Orders", 18000, 96000),
    ("Website visits", "visits", "Sign-ups", 4000, 42000),
    ("Rainfall", "mm", "Rain days", 8, 160),
    ("Units sold", "units", "Returns", 300, 2400),
    ("Energy use", "kWh", "Peak load", 900, 5200),
    ("Patient visits", "patients", "No-shows", 250, 1300),
    ("Support tickets", "tickets", "Escalations", 120, 900),
    ("Donations", "USD", "Donors", 2500, 31000),
]
SHEETS = ["Monthly", "Figures", "Data", "Year", "Summary 12M", "Stats"]


def read_charts(path):
    """Every chart in an .xlsx as plain facts: plot kinds, bar direction, titles and series ranges."""
    import xml.etree.ElementTree as ET
    import zipfile

    c = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
    a = "{http://schemas.openxmlformats.org/drawingml/2006/main}"

    def title_text(node):
        if node is None:
            return ""
        parts = [t.text or "" for t in node.iter(a + "t")] or [v.text or "" for v in node.iter(c + "v")]
        return " ".join("".join(parts).split())

    charts = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(archive.namelist()):
            if not (name.startswith("xl/charts/") and name.endswith(".xml")):
                continue
            root = ET.fromstring(archive.read(name))
            chart = root.find(c + "chart")
            plot = chart.find(c + "plotArea") if chart is not None else None
            if plot is None:
                continue
            facts = {"kinds": [], "bar_dir": None, "title": title_text(chart.find(c + "title")),
                     "cat_title": "", "val_title": "", "series": []}  # fmt: skip
            for node in plot:
                tag = node.tag.replace(c, "")
                if tag.endswith("Chart"):
                    facts["kinds"].append(tag)
                    direction = node.find(c + "barDir")
                    if direction is not None and facts["bar_dir"] is None:
                        facts["bar_dir"] = direction.get("val", "col")
                    for ser in node.findall(c + "ser"):
                        val = ser.find(f"{c}val//{c}f")
                        if val is None:
                            val = ser.find(f"{c}yVal//{c}f")
                        cat = ser.find(f"{c}cat//{c}f")
                        if cat is None:
                            cat = ser.find(f"{c}xVal//{c}f")
                        facts["series"].append({"val": val.text if val is not None else "",
                                                "cat": cat.text if cat is not None else ""})  # fmt: skip
                elif tag in ("catAx", "dateAx"):
                    facts["cat_title"] = facts["cat_title"] or title_text(node.find(c + "title"))
                elif tag == "valAx":
                    facts["val_title"] = facts["val_title"] or title_text(node.find(c + "title"))
            charts.append(facts)
    return charts


def parse_area(ref):
    """'Sheet 1'!$B$2:$B$13 -> ("sheet 1", min_col, min_row, max_col, max_row); None if unreadable."""
    from openpyxl.utils import range_boundaries

    if not ref or "!" not in ref:
        return None
    sheet, area = ref.strip().lstrip("(").rstrip(")").rsplit("!", 1)
    sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
    try:
        bounds = range_boundaries(area.replace("$", ""))
    except ValueError:
        return None
    return (sheet.strip().lower(), *bounds)


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(P["headers"])
    for row, month in enumerate(P["months"]):
        values = [P["target_values"][row], P["other_values"][row]]
        ws.append([month, *(values if P["target_col"] == 2 else values[::-1])])
    ws.append(["Total", "=SUM(B2:B13)", "=SUM(C2:C13)"])
    for cell in ws[1] + ws[14]:
        cell.font = Font(bold=True)
    ws.column_dimensions["A"].width = 14
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def add_chart(P, last_row):
    import openpyxl
    from openpyxl.chart import BarChart, Reference

    path = HOME / P["path"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    chart = BarChart()
    chart.type = "col"
    chart.title = P["title"]
    chart.x_axis.title = "Month"
    chart.y_axis.title = P["y_title"]
    col = P["target_col"]
    chart.add_data(Reference(ws, min_col=col, min_row=1, max_row=last_row), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=last_row))
    ws.add_chart(chart, "E2")
    wb.save(path)


def golden_patch(P):
    add_chart(P, 13)


def near_miss(P):
    # The classic slip: the selection runs one row too far and plots the Total row as a 13th bar.
    add_chart(P, 14)


def reward(P):
    import openpyxl

    path = HOME / P["path"]
    sheet = P["sheet"].strip().lower()
    col = P["target_col"]
    state = {}

    def chart():
        """The chart that best matches the task (a column chart of the target column wins)."""
        if "chart" not in state:
            def fit(facts):
                areas = [parse_area(s["val"]) for s in facts["series"]]
                plots_target = any(a and a[0] == sheet and a[1] == a[3] == col for a in areas)
                return (plots_target, "barChart" in facts["kinds"] or "bar3DChart" in facts["kinds"])

            charts = sorted(read_charts(path), key=fit, reverse=True)
            state["chart"] = charts[0] if charts else None
        if state["chart"] is None:
            raise LookupError("the workbook has no chart")
        return state["chart"]

    def same_text(got, expected):
        return " ".join(str(got).split()).casefold() == " ".join(expected.split()).casefold()

    @precondition("the monthly figures are unchanged")
    def data_intact():
        ws = openpyxl.load_workbook(path)[P["sheet"]]
        return [ws.cell(row=r, column=col).value for r in range(2, 14)] == P["target_values"]

    @component("a chart plots the monthly figures of the requested column", 0.3)
    def plots_target():
        areas = [parse_area(s["val"]) for s in chart()["series"]]
        return any(a and a[0] == sheet and a[1] == a[3] == col for a in areas)

    @component("the chart is a column chart", 0.2)
    def column_type():
        facts = chart()
        is_bar = bool({"barChart", "bar3DChart"} & set(facts["kinds"]))
        return is_bar and facts["bar_dir"] == "col" and len(facts["kinds"]) == 1

    @component("the data range is exactly the 12 months (values, month labels, no extra series)", 0.2)
    def twelve_months():
        series = chart()["series"]
        values = [parse_area(s["val"]) for s in series]
        target = [s for s, a in zip(series, values, strict=True) if a and a[0] == sheet and a[1] == a[3] == col]
        if not target:
            return 0.0
        exact_values = values[series.index(target[0])][1:] == (col, 2, col, 13)
        labels = parse_area(target[0]["cat"])
        exact_labels = labels is not None and labels[0] == sheet and labels[1:] == (1, 2, 1, 13)
        single_series = len(series) == 1
        return (exact_values + exact_labels + single_series) / 3

    @component("the chart title is set", 0.15)
    def chart_title():
        return same_text(chart()["title"], P["title"])

    @component("the category and value axes are titled", 0.15)
    def axis_titles():
        facts = chart()
        return (same_text(facts["cat_title"], "Month") + same_text(facts["val_title"], P["y_title"])) / 2


class MonthlyChart(Family):
    id = "calc.monthly_chart"
    apps = ("calc",)
    difficulty = Difficulty.MEDIUM
    leaves = ("calc/charts/create/column_chart", "calc/charts/data/data_range",
              "calc/charts/labels/chart_title", "calc/charts/labels/axis_titles")  # fmt: skip
    domains = (Domain.BUSINESS_FINANCE, Domain.SALES, Domain.SCIENCE, Domain.HEALTHCARE, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC, Scenario.PERSONAL)
    helpers = (read_charts, parse_area, add_chart)
    templates = {
        Wording.IMPERATIVE: "Open {file} and insert a column chart of the monthly {metric} (column {col}) "
        "for the twelve months only, January to December, with the months as categories and without "
        "the Total row or the {other} column. Title the chart \"{title}\", title the X axis \"Month\" "
        "and the Y axis \"{y_title}\". Save the file in xlsx format.",
        Wording.REQUEST: "Could you add a column chart to {file} that shows {metric} for each of the 12 "
        "months (rows 2 to 13 of column {col}, month names as the categories; leave out the Total row "
        "and {other})? Please call it \"{title}\", with \"Month\" on the X axis and \"{y_title}\" on the "
        "Y axis, and keep the file as .xlsx.",
        Wording.CONTEXTUAL: "As {persona}, I need a slide-ready view of last year's {metric}. In "
        "{file}, sheet {sheet}, make a vertical column chart of column {col} for January through "
        "December only (not the Total row, not {other}), months as category labels, chart title "
        "\"{title}\", X-axis title \"Month\", Y-axis title \"{y_title}\". Save it as xlsx.",
        Wording.GOAL: "Goal: {file} contains a column chart whose only series is the {metric} column "
        "({col}2:{col}13) with categories A2:A13 (the 12 months), chart title \"{title}\", X-axis title "
        "\"Month\" and Y-axis title \"{y_title}\". The file is saved as xlsx.",
        Wording.PROBLEM_FIX: "The {metric} figures in {file} have no chart, so nobody can see the trend. "
        "Fix that with a column chart of the 12 monthly values in column {col} (not the Total row or "
        "{other}), months on the category axis, titled \"{title}\", X axis \"Month\", Y axis "
        "\"{y_title}\"; save as xlsx.",
    }

    def draw(self, rng: random.Random) -> dict:
        metric, unit, other, low, high = rng.choice(METRICS)
        year = rng.randint(2018, 2025)
        style = rng.choice(["full", "short", "dated"])
        months = {"full": MONTHS, "short": [m[:3] for m in MONTHS],
                  "dated": [f"{m[:3]} {year}" for m in MONTHS]}[style]  # fmt: skip
        target_col = rng.choice([2, 3])
        headers = ["Month", f"{metric} ({unit})", other]
        if target_col == 3:
            headers = ["Month", other, f"{metric} ({unit})"]
        title = rng.choice([f"{metric} {year}", f"Monthly {metric.lower()}, {year}", f"{year} {metric} by month"])
        stem = metric.lower().replace(" ", "_")
        return {
            "path": f"{rng.choice(['Desktop', 'Documents'])}/{stem}_{year}_{rng.randint(10, 99)}.xlsx",
            "sheet": rng.choice(SHEETS),
            "headers": headers,
            "months": months,
            "metric": metric,
            "other": other,
            "target_col": target_col,
            "target_values": [rng.randint(low, high) for _ in range(12)],
            "other_values": [rng.randint(max(1, low // 20), max(2, high // 10)) for _ in range(12)],
            "title": title,
            "y_title": f"{metric} ({unit})",
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "metric": P["metric"].lower(), "other": P["other"],
                "col": "BC"[P["target_col"] - 2], "title": P["title"], "y_title": P["y_title"],
                "sheet": P["sheet"]}  # fmt: skip

    def context(self, P: dict) -> str:
        col = "BC"[P["target_col"] - 2]
        return (
            f"~/{P['path']} has one sheet {P['sheet']!r}: header row {P['headers']}, months {P['months'][0]!r}.."
            f"{P['months'][-1]!r} in A2:A13, {P['metric']} in {col}2:{col}13 = {P['target_values']}, the "
            f"distractor {P['other']!r} in the other column, and a Total row 14 with SUM formulas; no chart. "
            f"Expected: one column chart (barChart, barDir col) with a single series "
            f"values {col}2:{col}13, categories A2:A13, title {P['title']!r}, category-axis title 'Month', "
            f"value-axis title {P['y_title']!r}."
        )
