"""Calc: a titled column chart of twelve monthly figures. Data and wording: monthly_chart.yaml.

The table has a second metric and a Total row under December, so the range is a real choice: the
chart must plot one column over exactly the twelve months. Charts are read straight from the
chart XML in the .xlsx (stdlib only), which is how LibreOffice and openpyxl both store them.
"""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import new_table, open_sheet, rows_kept, save_book


def draw(rng, pools):
    metric, unit, other, low, high = rng.choice(pools["metrics"])
    year = rng.randint(2018, 2025)
    short = [m[:3] for m in pools["months"]]
    styles = {"full": pools["months"], "short": short, "dated": [f"{m} {year}" for m in short]}
    months = styles[rng.choice(["full", "short", "dated"])]
    target_col = rng.choice([2, 3])
    pair = [f"{metric} ({unit})", other]
    headers = ["Month", *(pair if target_col == 2 else pair[::-1])]
    title = rng.choice([f"{metric} {year}", f"Monthly {metric.lower()}, {year}", f"{year} {metric} by month"])
    return {
        "path": f"{rng.choice(['Desktop', 'Documents'])}/{metric.lower().replace(' ', '_')}_{year}_{rng.randint(10, 99)}.xlsx",
        "sheet": rng.choice(pools["sheets"]),
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

    def ref(ser, *tags):
        found = [f for tag in tags for f in [ser.find(f"{c}{tag}//{c}f")] if f is not None]
        return found[0].text if found else ""

    charts = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(archive.namelist()):
            if not (name.startswith("xl/charts/") and name.endswith(".xml")):
                continue
            chart = ET.fromstring(archive.read(name)).find(c + "chart")
            plot = chart.find(c + "plotArea") if chart is not None else None
            if plot is None:
                continue
            facts = {"kinds": [], "bar_dir": None, "cat_title": "", "val_title": "", "series": []}
            facts["title"] = title_text(chart.find(c + "title"))
            for node in plot:
                tag = node.tag.replace(c, "")
                if tag.endswith("Chart"):
                    facts["kinds"].append(tag)
                    direction = node.find(c + "barDir")
                    if direction is not None and facts["bar_dir"] is None:
                        facts["bar_dir"] = direction.get("val", "col")
                    for ser in node.findall(c + "ser"):
                        facts["series"].append(
                            {"val": ref(ser, "val", "yVal"), "cat": ref(ser, "cat", "xVal")}
                        )
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


def table(P):
    """The rows under the header: the twelve months with both figures, then the Total row."""
    values = zip(P["target_values"], P["other_values"], strict=True)
    rows = [[m, *(v if P["target_col"] == 2 else v[::-1])] for m, v in zip(P["months"], values, strict=True)]
    return [*rows, ["Total", "=SUM(B2:B13)", "=SUM(C2:C13)"]]


def initial_setup(P):
    from openpyxl.styles import Font

    wb = new_table(P["sheet"], P["headers"], table(P))
    for cell in wb.active[14]:
        cell.font = Font(bold=True)
    wb.active.column_dimensions["A"].width = 14
    save_book(wb, P["path"])


def solve(P, *, mistake=None):
    from openpyxl.chart import BarChart, Reference

    wb, ws = open_sheet(P["path"], P["sheet"])
    last = 14 if mistake == "total_row_included" else 13
    chart = BarChart()
    chart.type = "bar" if mistake == "horizontal_bars" else "col"
    chart.title = P["title"]
    if mistake != "no_axis_titles":
        chart.x_axis.title, chart.y_axis.title = "Month", P["y_title"]
    chart.add_data(Reference(ws, min_col=P["target_col"], min_row=1, max_row=last), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=last))
    ws.add_chart(chart, "E2")
    wb.save(HOME / P["path"])


def reward(P):
    import functools

    import openpyxl

    sheet, col = P["sheet"].strip().lower(), P["target_col"]

    def on_target(facts):
        """The series of a chart that plot the requested column."""
        areas = [(s, parse_area(s["val"])) for s in facts["series"]]
        return [s for s, a in areas if a and a[0] == sheet and a[1] == a[3] == col]

    @functools.cache
    def chart():
        """The chart that best matches the task (a column chart of the target column wins), or none."""

        def fit(facts):
            return (bool(on_target(facts)), "barChart" in facts["kinds"] or "bar3DChart" in facts["kinds"])

        charts = sorted(read_charts(HOME / P["path"]), key=fit, reverse=True)
        none = {"kinds": [], "bar_dir": None, "title": "", "cat_title": "", "val_title": "", "series": []}
        return charts[0] if charts else none  # no chart yet: every check fails

    def same_text(got, expected):
        return " ".join(str(got).split()).casefold() == " ".join(expected.split()).casefold()

    @precondition("the table is unchanged")
    def data_intact():
        return rows_kept(openpyxl.load_workbook(HOME / P["path"])[P["sheet"]], [P["headers"], *table(P)], 1)

    @component("a chart plots the monthly figures of the requested column", 0.3)
    def plots_target():
        return bool(on_target(chart()))

    @component("the chart is a column chart", 0.2)
    def column_type():
        facts = chart()
        is_bar = bool({"barChart", "bar3DChart"} & set(facts["kinds"]))
        return is_bar and facts["bar_dir"] == "col" and len(facts["kinds"]) == 1

    @component("the data range is exactly the 12 months (values, month labels, no extra series)", 0.2)
    def twelve_months():
        series, target = chart()["series"], on_target(chart())
        if not target:
            return 0.0
        exact_values = parse_area(target[0]["val"])[1:] == (col, 2, col, 13)
        labels = parse_area(target[0]["cat"])
        exact_labels = labels is not None and labels[0] == sheet and labels[1:] == (1, 2, 1, 13)
        return (exact_values + exact_labels + (len(series) == 1)) / 3

    @component("the chart title is set", 0.15)
    def chart_title():
        return same_text(chart()["title"], P["title"])

    @component("the category and value axes are titled", 0.15)
    def axis_titles():
        facts = chart()
        return (same_text(facts["cat_title"], "Month") + same_text(facts["val_title"], P["y_title"])) / 2
