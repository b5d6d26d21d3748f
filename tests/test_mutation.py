"""Mutation testing's office handlers (tasks/mutation/guest/mutator/{sheets,docs,decks}.py), through
the real sandbox: synthetic initial/golden pairs are written by guest scripts, the mutator runs as
the pipeline runs it (`python3 -m mutator CONFIG` with both homes and the reward kit bound
read-only), and every mutant is opened and inspected by a guest script too. Then a driver over the
office families: every family's mutants are built and graded by its own reward."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from infra.sandbox import Bind, Limits, run_in_sandbox
from skills.kit import load_families
from tasks.mutation import GUEST_LIB, KIT_GUEST, MOUNT, incidental_rules

from .conftest import SKILLS, family_mutation_report


def guest(guest_python: Path, home: Path, code: str) -> str:
    """Run `code` in the sandbox with `home` as /home/user; its stdout."""
    result = run_in_sandbox(
        ["python3", "-c", textwrap.dedent(code)],
        home=home,
        guest_python=guest_python,
        limits=Limits(timeout_s=60),
    )
    assert result.ok, result.stderr[-3000:]
    return result.stdout


def pair(tmp_path: Path, guest_python: Path, setup: str, patch: str) -> tuple[Path, Path]:
    initial, golden = tmp_path / "initial", tmp_path / "golden"
    for home in (initial, golden):
        guest(guest_python, home, setup)
    guest(guest_python, golden, setup.split("# --", 1)[0] + textwrap.dedent(patch))
    return initial, golden


def mutate(tmp_path: Path, guest_python: Path, initial: Path, golden: Path, **settings) -> tuple[dict, Path]:
    """The mutator's plan (units, mutants, skipped) and the home holding out/<mutant id>/."""
    home = tmp_path / "mutator"
    config = {
        "initial": f"{MOUNT}/initial",
        "golden": f"{MOUNT}/golden",
        "out": "/home/user/out",
        "seed": "test",
        "max_partial": 1000,
        "max_corruptions": 1000,
        "incidental": incidental_rules(),
        **settings,
    }
    binds = [
        Bind(initial, f"{MOUNT}/initial"),
        Bind(golden, f"{MOUNT}/golden"),
        Bind(GUEST_LIB, f"{MOUNT}/lib"),
        Bind(KIT_GUEST, f"{MOUNT}/kit"),
    ]
    result = run_in_sandbox(
        ["python3", "-m", "mutator", json.dumps(config)],
        home=home,
        binds=binds,
        limits=Limits(timeout_s=120, memory_mb=2048),
        env={"PYTHONPATH": f"{MOUNT}/lib"},
        guest_python=guest_python,
    )
    assert result.ok, result.stderr[-3000:]
    plan = json.loads((home / "out" / "plan.json").read_text(encoding="utf-8"))
    assert not plan["skipped"], plan["skipped"]
    return plan, home


def inspect(guest_python: Path, home: Path, rel: str, facts: str) -> dict:
    """{mutant id: facts(path) or "invalid: ..."} for every mutant of `rel` (facts: the body of a guest
    function of `path` returning JSON-able facts, raising if the file does not open)."""
    body = textwrap.indent(textwrap.dedent(facts).strip("\n"), "    ")
    code = f"""import json
from pathlib import Path

def facts(path):
{body}

found = {{}}
for folder in sorted(Path("/home/user/out").iterdir()):
    if folder.is_dir():
        try:
            found[folder.name] = facts(folder / {rel!r})
        except Exception as exc:
            found[folder.name] = f"invalid: {{type(exc).__name__}}: {{exc}}"
print(json.dumps(found, default=str))
"""
    return json.loads(guest(guest_python, home, code))


def by_what(plan: dict, base: str, kind: str, text: str = "") -> str:
    """The id of the mutant of `base` ("drop" or "only") for the unit of `kind` whose description
    contains `text`."""
    found = [
        m["id"]
        for m in plan["mutants"]
        if m["id"].startswith(base) and m["unit_kind"] == kind and text in m["what"]
    ]
    assert len(found) == 1, (base, kind, text, [m["what"] for m in plan["mutants"] if m["unit_kind"] == kind])
    return found[0]


def kinds(plan: dict) -> list[str]:
    return sorted(u["kind"] for u in plan["units"])


def valid_except_wrong_format(plan: dict, found: dict) -> None:
    wrong = {m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.wrong_format"}
    assert {m["id"] for m in plan["mutants"]} == set(found)
    for mutant_id, facts in found.items():
        invalid = isinstance(facts, str) and facts.startswith("invalid")
        assert invalid == (mutant_id in wrong), (mutant_id, facts)


# --- spreadsheets -----------------------------------------------------------------------------------

BOOK = "Documents/book.xlsx"
BOOK_SETUP = """
import openpyxl
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.formatting.rule import CellIsRule
from openpyxl.workbook.defined_name import DefinedName
from pathlib import Path

path = Path("/home/user/Documents/book.xlsx")
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Data"
ws.append(["Item", "Qty", "Price"])
for i in range(1, 9):
    ws.append([f"item {i}", i, i * 1.5])
wb.create_sheet("Old")["A1"] = "obsolete"
notes = wb.create_sheet("Notes")
notes["A1"], notes["A2"] = "keep me", "second line"
wb.create_sheet("Last")["A1"] = "the last sheet"
wb.save(path)
# --
"""
BOOK_PATCH = """
wb = openpyxl.load_workbook(path)
ws = wb["Data"]
ws["B3"] = 20
ws["D1"], ws["D2"] = "Total", "=B2*C2"
ws["C2"].number_format = "0.00"
ws["A1"].font = Font(bold=True)
ws["A2"].fill = PatternFill("solid", fgColor="FFFF00")
ws["A3"].alignment = Alignment(horizontal="center")
ws["E10"] = "=SUM(B2:B9)"
ws.freeze_panes = "A2"
rule = DataValidation(type="list", formula1='"a,b"')
rule.add("E2:E9")
ws.add_data_validation(rule)
ws.conditional_formatting.add("B2:B9", CellIsRule(operator="greaterThan", formula=["5"], fill=PatternFill(bgColor="FFC7CE")))
ws.auto_filter.ref = "A1:C9"
ws.merge_cells("F1:G1")
ws.column_dimensions["A"].width = 30
ws.row_dimensions[5].height = 30
wb.defined_names["Prices"] = DefinedName("Prices", attr_text="Data!$C$2:$C$9")
wb.remove(wb["Old"])
wb["Notes"].title = "Remarks"
summary = wb.create_sheet("Summary")
summary["A1"], summary["B1"] = "Sum", "=SUM(Data!B2:B9)"
wb._sheets = [wb["Last"], *[s for s in wb._sheets if s.title != "Last"]]
wb.save(path)
"""
BOOK_FACTS = """
import zipfile
import openpyxl
wb = openpyxl.load_workbook(path)
ws = wb["Data"] if "Data" in wb.sheetnames else None
cell = lambda ref: ws[ref] if ws is not None else None
return {
    "sheets": wb.sheetnames,
    "B3": cell("B3").value, "D2": cell("D2").value, "E10": cell("E10").value,
    "C2_format": cell("C2").number_format, "A1_bold": bool(cell("A1").font.b),
    "A2_fill": cell("A2").fill.fgColor.rgb if cell("A2").fill.fill_type else None,
    "A3_align": cell("A3").alignment.horizontal,
    "freeze": ws.freeze_panes, "validations": [str(v.sqref) for v in ws.data_validations.dataValidation],
    "cf": [str(cf.sqref) for cf in ws.conditional_formatting], "filter": ws.auto_filter.ref,
    "merged": [str(r) for r in ws.merged_cells.ranges], "width_A": ws.column_dimensions["A"].width,
    "row5": ws.row_dimensions[5].height, "names": sorted(wb.defined_names),
    "summary": [[c.value for c in row] for row in wb["Summary"].iter_rows()] if "Summary" in wb.sheetnames else None,
    "remarks": wb["Remarks"]["A2"].value if "Remarks" in wb.sheetnames else None,
    "parts": sorted(zipfile.ZipFile(path).namelist()),
}
"""


def test_workbook_units_per_cell_aspect_sheet_and_feature(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, BOOK_SETUP, BOOK_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    for kind in [
        "xlsx.cell.value",
        "xlsx.cell.number_format",
        "xlsx.cell.font.bold",
        "xlsx.cell.fill",
        "xlsx.cell.alignment",
        "xlsx.freeze",
        "xlsx.validation",
        "xlsx.conditional_format",
        "xlsx.autofilter",
        "xlsx.merge",
        "xlsx.column",
        "xlsx.sheet.removed",
        "xlsx.sheet.renamed",
        "xlsx.sheet.moved",
        "xlsx.sheet.added",
        "xlsx.row",
        "xlsx.name",
    ]:
        assert kind in kinds(plan), kind
    assert kinds(plan).count("xlsx.cell.value") == 6  # B3, D1, D2, E10, and Summary's A1 and B1
    found = inspect(guest_python, home, BOOK, BOOK_FACTS)
    valid_except_wrong_format(plan, found)
    golden_facts = {
        "B3": 20,
        "D2": "=B2*C2",
        "C2_format": "0.00",
        "A1_bold": True,
        "A2_fill": "00FFFF00",
        "A3_align": "center",
        "freeze": "A2",
        "validations": ["E2:E9"],
        "cf": ["B2:B9"],
        "filter": "A1:C9",
        "merged": ["F1:G1"],
        "width_A": 30,
        "row5": 30,
        "names": ["Prices"],
    }

    def differs_from_golden(mutant_id):
        facts = found[mutant_id]
        return {k for k, v in golden_facts.items() if facts[k] != v}

    # each drop mutant is the golden less exactly its unit
    assert differs_from_golden(by_what(plan, "drop", "xlsx.cell.value", "!B3")) == {"B3"}
    assert found[by_what(plan, "drop", "xlsx.cell.value", "!B3")]["B3"] == 2
    assert differs_from_golden(by_what(plan, "drop", "xlsx.cell.number_format")) == {"C2_format"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.cell.font.bold")) == {"A1_bold"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.cell.fill")) == {"A2_fill"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.cell.alignment")) == {"A3_align"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.freeze")) == {"freeze"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.validation")) == {"validations"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.conditional_format")) == {"cf"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.autofilter")) == {"filter"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.merge")) == {"merged"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.column")) == {"width_A"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.row")) == {"row5"}
    assert differs_from_golden(by_what(plan, "drop", "xlsx.name")) == {"names"}
    assert found[by_what(plan, "only", "xlsx.name")]["names"] == ["Prices"]
    # sheets: reverting the golden's sheet changes, one at a time
    assert found[by_what(plan, "drop", "xlsx.sheet.removed")]["sheets"] == [
        "Last",
        "Data",
        "Old",
        "Remarks",
        "Summary",
    ]
    assert found[by_what(plan, "drop", "xlsx.sheet.renamed")]["sheets"] == [
        "Last",
        "Data",
        "Notes",
        "Summary",
    ]
    assert found[by_what(plan, "drop", "xlsx.sheet.moved")]["sheets"] == [
        "Data",
        "Remarks",
        "Last",
        "Summary",
    ]
    assert found[by_what(plan, "drop", "xlsx.sheet.added")]["sheets"] == ["Last", "Data", "Remarks"]
    # ... and the initial with one of them applied
    only_added = found[by_what(plan, "only", "xlsx.sheet.added")]
    assert only_added["sheets"] == ["Data", "Old", "Notes", "Summary", "Last"]  # after its golden predecessor
    assert only_added["summary"] == [["Sum", "=SUM(Data!B2:B9)"]] and only_added["B3"] == 2
    assert found[by_what(plan, "only", "xlsx.sheet.removed")]["sheets"] == ["Data", "Notes", "Last"]
    assert found[by_what(plan, "only", "xlsx.sheet.moved")]["sheets"] == ["Last", "Data", "Old", "Notes"]
    only_cell = found[by_what(plan, "only", "xlsx.cell.value", "'Summary'!B1")]  # a cell of the added sheet
    assert only_cell["summary"] == [[None, "=SUM(Data!B2:B9)"]] and only_cell["D2"] is None
    assert found[by_what(plan, "only", "xlsx.freeze")]["freeze"] == "A2"
    assert found[by_what(plan, "only", "xlsx.freeze")]["validations"] == []


CHART_SETUP = """
import openpyxl
from openpyxl.chart import BarChart, LineChart, Reference
from pathlib import Path

path = Path("/home/user/Documents/book.xlsx")
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Data"
ws.append(["Month", "Sales"])
for month in range(1, 13):
    ws.append([f"M{month}", month * 10])
wb.create_sheet("Plot")
gone = BarChart()
gone.add_data(Reference(ws, min_col=2, min_row=2, max_row=13))
wb.create_sheet("Old").add_chart(gone, "A1")
old = LineChart()
old.title = "Old title"
old.add_data(Reference(ws, min_col=2, min_row=1, max_row=13), titles_from_data=True)
ws.add_chart(old, "D2")
wb.save(path)
# --
"""
CHART_PATCH = """
wb = openpyxl.load_workbook(path)
ws = wb["Data"]
ws._charts[0].title = "New title"
wb["Old"]._charts = []
chart = BarChart()
chart.title = "Sales by month"
chart.x_axis.title, chart.y_axis.title = "Month", "Sales"
chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=13), titles_from_data=True)
chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=13))
wb["Plot"].add_chart(chart, "A1")
ws["C2"] = "=B2*2"
wb.save(path)
"""
CHART_FACTS = """
import json
import zipfile
import openpyxl
from lxml import etree
wb = openpyxl.load_workbook(path)
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
charts = {}
with zipfile.ZipFile(path) as z:
    for name in sorted(n for n in z.namelist() if n.startswith("xl/charts/")):
        root = etree.fromstring(z.read(name))
        title = root.find(f"{C}chart/{C}title")
        kind = [el.tag.replace(C, "") for el in root.find(f"{C}chart/{C}plotArea") if el.tag.endswith("Chart")]
        charts[name] = {"title": "".join(t.text for t in title.iter(f"{A}t")) if title is not None else None,
                        "kind": kind, "series": [f.text for f in root.iter(f"{C}f")]}
return {"charts": sorted(charts.values(), key=lambda c: json.dumps(c, sort_keys=True)), "on_data": len(wb["Data"]._charts),
        "on_plot": len(wb["Plot"]._charts), "on_old": len(wb["Old"]._charts), "C2": wb["Data"]["C2"].value}
"""


def charts(*found):
    return sorted(found, key=lambda c: json.dumps(c, sort_keys=True))


def test_workbook_charts_added_changed_and_their_parts(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, CHART_SETUP, CHART_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert kinds(plan) == sorted(
        [
            "xlsx.cell.value",
            "xlsx.chart",
            "xlsx.chart",
            "xlsx.chart.title",
            "xlsx.chart.title",
            "xlsx.chart.axis_title",
            "xlsx.chart.axis_title",
            "xlsx.chart.series",
            "xlsx.chart.categories",
        ]
    )
    found = inspect(guest_python, home, BOOK, CHART_FACTS)
    valid_except_wrong_format(plan, found)
    bar = {
        "kind": ["barChart"],
        "series": ["'Data'!B1", "'Data'!$A$2:$A$13", "'Data'!$B$2:$B$13"],
        "title": "Sales by month",
    }
    line = {"kind": ["lineChart"], "series": ["'Data'!B1", "'Data'!$B$2:$B$13"], "title": "New title"}
    # the added chart's revert removes it (and its part)
    dropped = found[by_what(plan, "drop", "xlsx.chart", "added")]
    assert dropped["charts"] == charts(line) and dropped["on_plot"] == 0 and dropped["C2"] == "=B2*2"
    only = found[by_what(plan, "only", "xlsx.chart", "added")]
    gone = {"kind": ["barChart"], "series": ["'Data'!$B$2:$B$13"], "title": None}
    assert only["charts"] == charts(gone, bar, {**line, "title": "Old title"}) and only["C2"] is None
    kept = found[by_what(plan, "drop", "xlsx.chart", "deleted")]
    assert kept["on_old"] == 1 and kept["charts"] == charts(gone, bar, line)
    assert found[by_what(plan, "only", "xlsx.chart", "deleted")]["on_old"] == 0
    no_title = found[by_what(plan, "drop", "xlsx.chart.title", "(added)")]
    assert no_title["charts"] == charts({**bar, "title": None}, line)
    old_title = found[by_what(plan, "drop", "xlsx.chart.title", "changed")]["charts"]
    assert old_title == charts(bar, {**line, "title": "Old title"})
    no_labels = found[by_what(plan, "drop", "xlsx.chart.categories")]["charts"]
    assert {**bar, "series": ["'Data'!B1", "'Data'!$B$2:$B$13"]} in no_labels
    only_series = found[by_what(plan, "only", "xlsx.chart.series")]["charts"]
    assert {**bar, "title": None} in only_series  # the chart with that series alone: no title either
    # no formula has a range: the slip is in the first chart's ranges
    slip = next(m for m in plan["mutants"] if m["unit_kind"] == "corrupt.off_by_one")
    assert "'Data' chart 1 ranges one row short" in slip["what"]
    assert {**line, "series": ["'Data'!B1", "'Data'!$B$2:$B$12"]} in found[slip["id"]]["charts"]


def test_workbook_corruptions(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, BOOK_SETUP, BOOK_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    corrupt = {m["unit_kind"]: m for m in plan["mutants"] if m["kind"] == "corruption"}
    assert set(corrupt) >= {
        "corrupt.formula_to_value",
        "corrupt.off_by_one",
        "corrupt.wrong_format",
        "corrupt.extra_change",
    }
    found = inspect(guest_python, home, BOOK, BOOK_FACTS)
    # no cached value (openpyxl wrote the golden): the kit's evaluator gives it; B2*C2 = 1 * 1.5
    assert found[corrupt["corrupt.formula_to_value"]["id"]]["D2"] == 1.5
    # the first formula whose slip changes its value: SUM(B2:B9) one row short
    assert found[corrupt["corrupt.off_by_one"]["id"]]["E10"] == "=SUM(B2:B8)"
    text = guest(
        guest_python,
        home,
        f"print(open('/home/user/out/{corrupt['corrupt.wrong_format']['id']}/{BOOK}').read())",
    )
    assert text.startswith("Item,Qty,Price,Total")
    extra = corrupt["corrupt.extra_change"]
    assert "which the task leaves alone" in extra["what"] and "'Data'" in extra["what"]


# --- documents -------------------------------------------------------------------------------------------

DOC = "Documents/report.docx"
DOC_SETUP = """
import docx
from docx.shared import Mm
from pathlib import Path

path = Path("/home/user/Documents/report.docx")
doc = docx.Document()
doc.core_properties.title = ""
doc.add_paragraph("Quarterly report", style="Title")
doc.add_paragraph("Results")
doc.add_paragraph("Sales grew in every region this quarter.")
doc.add_paragraph("This paragraph is obsolete.")
doc.add_paragraph("The Alpha team shipped on time.")
table = doc.add_table(rows=2, cols=2)
for r, row in enumerate([["Team", "Lead"], ["Alpha", "Ana"]]):
    for c, text in enumerate(row):
        table.cell(r, c).text = text
doc.add_paragraph("Please read the attached notes before the meeting.")
doc.save(path)
# --
"""
DOC_PATCH = """
import datetime
from docx.enum.section import WD_ORIENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import RGBColor

doc = docx.Document(path)
paragraphs = doc.paragraphs
paragraphs[0].runs[0].italic = True
paragraphs[1].style = doc.styles["Heading 1"]
paragraphs[2].alignment = WD_ALIGN_PARAGRAPH.CENTER
text = paragraphs[2].text
for run in paragraphs[2].runs:
    run._r.getparent().remove(run._r)
paragraphs[2].add_run("Sales grew in ")
paragraphs[2].add_run("every region").bold = True
paragraphs[2].add_run(" this quarter.")
paragraphs[3]._p.getparent().remove(paragraphs[3]._p)
paragraphs[4].runs[0].text = "The Beta team shipped on time."
paragraphs[4].runs[0].italic = True
paragraphs[4].insert_paragraph_before("A new paragraph the task asked for.")
doc.tables[0].cell(1, 0).text = "Beta"
added = doc.add_table(rows=2, cols=1)
added.cell(0, 0).text, added.cell(1, 0).text = "Figure", "42"
section = doc.sections[0]
section.orientation = WD_ORIENT.LANDSCAPE
section.page_width, section.page_height = section.page_height, section.page_width
section.left_margin = Mm(15)
section.footer.paragraphs[0].text = "Internal use only"
doc.styles["Heading 1"].font.color.rgb = RGBColor(0xC0, 0, 0)
doc.core_properties.title = "Q3 report"
doc.core_properties.revision = 7
doc.core_properties.modified = datetime.datetime(2030, 1, 1)
doc.save(path)
"""
DOC_FACTS = """
import docx
doc = docx.Document(path)
section = doc.sections[0]
return {
    "texts": [p.text for p in doc.paragraphs],
    "styles": [p.style.name for p in doc.paragraphs],
    "bold": ["".join(r.text for r in p.runs if r.bold) for p in doc.paragraphs],
    "italic": ["".join(r.text for r in p.runs if r.italic) for p in doc.paragraphs],
    "align": [str(p.alignment) for p in doc.paragraphs],
    "tables": [[[c.text for c in row.cells] for row in t.rows] for t in doc.tables],
    "landscape": section.page_width > section.page_height, "left": section.left_margin,
    "footer": "" if section.footer.is_linked_to_previous else section.footer.paragraphs[0].text,
    "h1_colour": str(doc.styles["Heading 1"].font.color.rgb), "title": doc.core_properties.title,
}
"""


def test_document_units_align_paragraphs_and_cover_tables_sections_styles(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, DOC_SETUP, DOC_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert kinds(plan) == sorted(
        [
            "docx.run.italic",
            "docx.paragraph.style",
            "docx.paragraph.alignment",
            "docx.paragraph.runs",
            "docx.paragraph.removed",
            "docx.paragraph.added",
            "docx.paragraph.text",
            "docx.table.cell",
            "docx.table.added",
            "docx.table.row",
            "docx.table.row",
            "docx.section.page",
            "docx.section.margin",
            "docx.footer",
            "docx.style",
            "docx.property",
        ]
    )
    assert not any("revision" in u["what"] or "modified" in u["what"] for u in plan["units"])  # incidental
    found = inspect(guest_python, home, DOC, DOC_FACTS)
    valid_except_wrong_format(plan, found)
    gold = found[by_what(plan, "drop", "docx.style")]
    assert gold["h1_colour"] != "C00000" and gold["title"] == "Q3 report"

    def changed(mutant_id):
        return {k for k, v in found[mutant_id].items() if v != gold[k]} - {"h1_colour"}

    assert changed(by_what(plan, "drop", "docx.paragraph.added")) == {
        "texts",
        "styles",
        "bold",
        "italic",
        "align",
    }
    assert (
        "A new paragraph the task asked for."
        not in found[by_what(plan, "drop", "docx.paragraph.added")]["texts"]
    )
    removed = found[by_what(plan, "drop", "docx.paragraph.removed")]["texts"]
    assert removed[2:4] == ["Sales grew in every region this quarter.", "This paragraph is obsolete."]
    assert found[by_what(plan, "drop", "docx.paragraph.style")]["styles"][1] == "Normal"
    assert changed(by_what(plan, "drop", "docx.paragraph.runs")) == {"bold"}
    assert changed(by_what(plan, "drop", "docx.paragraph.alignment")) == {"align"}
    assert changed(by_what(plan, "drop", "docx.run.italic")) == {"italic"}
    assert found[by_what(plan, "only", "docx.run.italic")]["italic"][0] == "Quarterly report"
    assert (
        found[by_what(plan, "drop", "docx.paragraph.text")]["texts"][4] == "The Alpha team shipped on time."
    )
    assert changed(by_what(plan, "drop", "docx.table.cell")) == {"tables"}
    assert changed(by_what(plan, "drop", "docx.section.page")) == {"landscape"}
    assert changed(by_what(plan, "drop", "docx.section.margin")) == {"left"}
    assert changed(by_what(plan, "drop", "docx.footer")) == {"footer"}
    assert changed(by_what(plan, "drop", "docx.property")) == {"title"}
    assert found[by_what(plan, "drop", "docx.table.added")]["tables"] == [[["Team", "Lead"], ["Beta", "Ana"]]]
    assert found[by_what(plan, "only", "docx.table.row", "row 2")]["tables"][1] == [["42"]]
    only_footer = found[by_what(plan, "only", "docx.footer")]
    assert only_footer["footer"] == "Internal use only" and not only_footer["landscape"]
    corrupt = {m["unit_kind"] for m in plan["mutants"] if m["kind"] == "corruption"}
    assert corrupt == {"corrupt.wrong_format", "corrupt.extra_change", "corrupt.overreach"}
    overreach = next(m for m in plan["mutants"] if m["unit_kind"] == "corrupt.overreach")
    assert found[overreach["id"]]["bold"][2] == "Sales grew in every region this quarter."
    extra = next(m for m in plan["mutants"] if m["unit_kind"] == "corrupt.extra_change")
    assert "Please read the attached notes" in extra["what"]
    assert "Please read the attached notes before the meeting." not in found[extra["id"]]["texts"]


# --- presentations -----------------------------------------------------------------------------------------

DECK = "Desktop/deck.pptx"
DECK_SETUP = """
from pptx import Presentation
from pathlib import Path

path = Path("/home/user/Desktop/deck.pptx")
prs = Presentation()
for layout, title, body in [(0, "Deck", "Subtitle"), (1, "Agenda", "Points"), (1, "Budget", "Numbers"),
                            (1, "Backup", "Old data"), (1, "Risks", "Many"), (1, "Close", "Thanks")]:
    slide = prs.slides.add_slide(prs.slide_layouts[layout])
    slide.shapes.title.text = title
    slide.placeholders[1].text_frame.text = body
prs.save(path)
# --
"""
DECK_PATCH = """
from pptx.dml.color import RGBColor
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.util import Emu, Pt

prs = Presentation(path)
slides = list(prs.slides)
titles = {s.shapes.title.text: s for s in slides}
for run in titles["Budget"].shapes.title.text_frame.paragraphs[0].runs:
    run.font.color.rgb = RGBColor(0xFF, 0, 0)
    run.font.size = Pt(40)
titles["Agenda"].placeholders[1].text_frame.text = "Points, revised"
titles["Risks"].shapes.title.left = Emu(100000)
titles["Risks"].notes_slide.notes_text_frame.text = "Say it slowly"
new = prs.slides.add_slide(prs.slide_layouts[5])  # first: python-pptx names a new slide part by the count
new.shapes.title.text = "Next steps"
new.shapes.add_textbox(Emu(1000000), Emu(2000000), Emu(3000000), Emu(800000)).text_frame.text = "Call the client"
agenda = titles["Agenda"]
layout = next(r.rId for r in agenda.part.rels.values() if r.reltype == RT.SLIDE_LAYOUT)
agenda.part.drop_rel(layout)
agenda.part.relate_to(prs.slide_layouts[3].part, RT.SLIDE_LAYOUT)  # Two Content
id_list = prs.slides._sldIdLst
entries = list(id_list)
backup = entries[3]
id_list.remove(backup)
prs.part.drop_rel(backup.rId)
close = entries[5]
id_list.remove(close)
id_list.insert(1, close)
prs.save(path)
"""
DECK_FACTS = """
from pptx import Presentation
prs = Presentation(path)
out = []
for slide in prs.slides:
    texts = [s.text_frame.text for s in slide.shapes if s.has_text_frame]
    title = slide.shapes.title
    runs = title.text_frame.paragraphs[0].runs if title is not None else []
    out.append({"texts": texts, "layout": slide.slide_layout.name,
                "colour": [str(r.font.color.rgb) if r.font.color.type is not None else None for r in runs],
                "size": [r.font.size.pt if r.font.size else None for r in runs],
                "left": title.left if title is not None else None,
                "notes": slide.notes_slide.notes_text_frame.text if slide.has_notes_slide else ""})
return out
"""


def test_presentation_units_slides_shapes_runs_and_notes(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, DECK_SETUP, DECK_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert kinds(plan) == sorted(
        [
            "pptx.slide.added",
            "pptx.slide.shape",
            "pptx.slide.shape",
            "pptx.slide.removed",
            "pptx.slide.moved",
            "pptx.run.colour",
            "pptx.run.size",
            "pptx.shape.text",
            "pptx.shape.geometry",
            "pptx.notes",
            "pptx.slide.layout",
        ]
    )
    found = inspect(guest_python, home, DECK, DECK_FACTS)
    valid_except_wrong_format(plan, found)

    def titles(mutant_id):
        return [s["texts"][0] for s in found[mutant_id]]

    gold = ["Deck", "Close", "Agenda", "Budget", "Risks", "Next steps"]
    assert titles(by_what(plan, "drop", "pptx.slide.removed")) == [
        "Deck",
        "Close",
        "Agenda",
        "Budget",
        "Backup",
        "Risks",
        "Next steps",
    ]
    assert titles(by_what(plan, "drop", "pptx.slide.moved")) == [
        "Deck",
        "Agenda",
        "Budget",
        "Risks",
        "Close",
        "Next steps",
    ]
    assert titles(by_what(plan, "drop", "pptx.slide.added")) == gold[:-1]
    assert titles(by_what(plan, "only", "pptx.slide.added")) == [
        "Deck",
        "Agenda",
        "Budget",
        "Backup",
        "Risks",
        "Next steps",
        "Close",
    ]
    only_box = found[by_what(plan, "only", "pptx.slide.shape", "Call the client")]
    assert [s["texts"] for s in only_box if s["layout"] == "Title Only"] == [["Call the client"]]
    colour = found[by_what(plan, "drop", "pptx.run.colour")][3]
    assert colour["colour"] == [None] and colour["size"] == [40.0]
    size = found[by_what(plan, "only", "pptx.run.size")][2]
    assert size["colour"] == [None] and size["size"] == [40.0]
    assert found[by_what(plan, "drop", "pptx.shape.text")][2]["texts"][1] == "Points"
    assert found[by_what(plan, "drop", "pptx.shape.geometry")][4]["left"] != 100000
    assert found[by_what(plan, "drop", "pptx.notes")][4]["notes"] == ""
    assert found[by_what(plan, "drop", "pptx.slide.layout")][2]["layout"] == "Title and Content"
    assert found[by_what(plan, "only", "pptx.slide.layout")][1]["layout"] == "Two Content"
    assert found[by_what(plan, "only", "pptx.notes")][4]["notes"] == "Say it slowly"
    corrupt = {m["unit_kind"]: m for m in plan["mutants"] if m["kind"] == "corruption"}
    assert set(corrupt) == {"corrupt.wrong_format", "corrupt.extra_change"}
    edits = [m for m in plan["mutants"] if m["unit_kind"] == "corrupt.extra_change"]
    assert len(edits) == 2  # a slide the golden left alone deleted, a text of one edited
    assert any(len(found[m["id"]]) == len(gold) - 1 for m in edits)
    assert any(any("(edited)" in t for s in found[m["id"]] for t in s["texts"]) for m in edits)


MOVES_SETUP = """
from pptx import Presentation
from pathlib import Path

path = Path("/home/user/Desktop/deck.pptx")
path.parent.mkdir(parents=True, exist_ok=True)
prs = Presentation()
for title in ["Deck", "Agenda", "Go-live", "Q&A", "Why", "Plan", "Training"]:
    prs.slides.add_slide(prs.slide_layouts[5]).shapes.title.text = title
prs.save(path)
# --
"""
MOVES_PATCH = """
prs = Presentation(path)
ids = prs.slides._sldIdLst
entries = {s.shapes.title.text: e for s, e in zip(prs.slides, list(ids))}
for title in ["Deck", "Agenda", "Why", "Plan", "Training", "Go-live", "Q&A"]:
    ids.remove(entries[title])
    ids.append(entries[title])
prs.save(path)
"""


def test_each_reverted_move_leaves_a_slide_away_from_its_golden_place(tmp_path, guest_python):
    """Two slides moved, each next to the other (impress.reorder_slides at seed 13): undoing one next
    to its initial neighbour, the other moved slide, would leave it where it is, a mutant equal to
    the golden deck. Each is put back next to the nearest slide that kept its place."""
    initial, golden = pair(tmp_path, guest_python, MOVES_SETUP, MOVES_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    titles = "from pptx import Presentation\nreturn [s.shapes.title.text for s in Presentation(path).slides]"
    found = inspect(guest_python, home, DECK, titles)
    gold = ["Deck", "Agenda", "Why", "Plan", "Training", "Go-live", "Q&A"]
    moved = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "pptx.slide.moved"]
    assert len(moved) >= 2 and all(found[m] != gold for m in moved)
    assert found[by_what(plan, "drop", "pptx.slide.moved", "Q&A")] == [
        "Deck", "Agenda", "Q&A", "Why", "Plan", "Training", "Go-live",
    ]  # fmt: skip


STAND_IN_SETUP = """
from pathlib import Path

folder = Path("/home/user/Documents")
folder.mkdir(parents=True, exist_ok=True)
for n in range(3):
    (folder / f"draft_{n}.docx").write_bytes(b"PK\\x03\\x04" + bytes(range(200)) * (n + 1))
# --
"""
STAND_IN_PATCH = """
for n in range(3):
    (folder / f"draft_{n}.docx").rename(folder / f"chapter_{n}.docx")
"""


def test_a_stand_in_document_that_is_not_a_zip_is_opaque_bytes(tmp_path, guest_python):
    """The files families give stand-in .docx files real magic bytes only: renamed, they are file-level
    changes, and no document corruption is planned for them (it could not be built: a skipped
    mutant on every such file, which failed files.batch_rename on unseen seeds)."""
    initial, golden = pair(tmp_path, guest_python, STAND_IN_SETUP, STAND_IN_PATCH)
    plan, _ = mutate(tmp_path, guest_python, initial, golden)  # asserts nothing was skipped
    assert {u["kind"] for u in plan["units"]} == {"file.moved"}
    office = [
        m for m in plan["mutants"] if m["unit_kind"].startswith("docx") or "wrong_format" in m["unit_kind"]
    ]
    assert not office and plan["mutants"]


def test_metadata_only_changes_are_incidental(tmp_path, guest_python):
    setup = """
        import docx
        from pathlib import Path

        path = Path("/home/user/Documents/memo.docx")
        doc = docx.Document()
        doc.add_paragraph("Memo")
        doc.save(path)
        # --
    """
    patch = """
        import datetime
        doc = docx.Document(path)
        doc.core_properties.revision = 9
        doc.core_properties.last_modified_by = "someone else"
        doc.core_properties.modified = datetime.datetime(2031, 5, 5)
        doc.paragraphs[0].text = "Memo, signed"
        doc.save(path)
    """
    initial, golden = pair(tmp_path, guest_python, textwrap.dedent(setup), patch)
    plan, _ = mutate(tmp_path, guest_python, initial, golden)
    assert kinds(plan) == ["docx.paragraph.text"]


# --- the office families, graded by their own rewards -------------------------------------------------------

FAMILIES = load_families(SKILLS)
OFFICE = sorted(f for f in FAMILIES if f.split(".")[0] in ("calc", "writer", "impress")) + [
    "mail.sheet_figure_reply"
]


@pytest.mark.slow
@pytest.mark.parametrize("family_id", OFFICE)
def test_office_family_mutants_are_built_and_graded(provider, family_id):
    family = FAMILIES[family_id]
    spec = family.instantiate(0)
    report = family_mutation_report(provider, family, spec)
    assert not report.skipped, report.skipped
    assert report.mutants and report.units >= 1
    partial = [m for m in report.mutants if m.kind == "partial_revert"]
    assert bool(partial) == (report.units >= 2)
    for mutant in report.mutants:  # a reward error is a broken state only for the wrong-format file
        assert mutant.outcome != "errored" or mutant.unit_kind in (
            "corrupt.wrong_format",
            "corrupt.off_by_one",
        ), (
            mutant.what,
            mutant.error,
        )
