"""Writer: the appendix holds a wide table, so its pages must be landscape with given margins while
the report body stays portrait (a second page style / section, not the whole document)."""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

PAPERS = {"A4": [210.0, 297.0], "Letter": [215.9, 279.4]}  # portrait width, height in mm
TOPICS = [
    ("fleet maintenance", "Vehicle service log", ["Vehicle", "Depot", "Jan", "Feb", "Mar", "Apr", "May", "Jun"]),
    ("clinic staffing", "Shift coverage by ward", ["Ward", "Lead", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]),
    ("crop trial", "Plot yields per treatment", ["Plot", "Variety", "T1", "T2", "T3", "T4", "T5", "Mean"]),
    ("server capacity", "Utilisation by host", ["Host", "Rack", "CPU", "RAM", "Disk", "Net", "Peak", "Alert"]),
    ("store sales", "Weekly sales by branch", ["Branch", "Manager", "W1", "W2", "W3", "W4", "W5", "Total"]),
]
BODY = [
    "This report summarises the period and the actions agreed by the review group.",
    "The main observations are listed below; detailed figures are in the appendix.",
    "Overall performance was in line with the plan, with two exceptions noted later.",
    "Comments from the site leads have been incorporated into this version.",
]


def section_index_of(doc, text):
    """Index in doc.sections of the section holding the first body paragraph whose text is `text`.

    A section ends at the paragraph carrying a w:sectPr (the last section at the body's own sectPr),
    which is how both Word and LibreOffice store page-style changes in .docx."""
    from docx.oxml.ns import qn

    index = 0
    for child in doc.element.body.iterchildren():
        if child.tag != qn("w:p"):
            continue
        if " ".join("".join(t.text or "" for t in child.iter(qn("w:t"))).split()) == text:
            return index
        ppr = child.find(qn("w:pPr"))
        if ppr is not None and ppr.find(qn("w:sectPr")) is not None:
            index += 1
    return None


def _set_appendix_page(P, margin_sides):
    import docx
    from docx.enum.section import WD_ORIENT
    from docx.shared import Emu

    MM = 36000  # EMU per millimetre
    path = HOME / P["path"]
    doc = docx.Document(path)
    first = section_index_of(doc, P["appendix_heading"])
    for section in list(doc.sections)[first:]:
        width, height = section.page_width, section.page_height
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = max(width, height), min(width, height)
        for side in margin_sides:
            setattr(section, f"{side}_margin", Emu(round(P["margin_mm"] * MM)))
    doc.save(path)


def initial_setup(P):
    import docx
    from docx.enum.section import WD_SECTION
    from docx.shared import Emu

    MM = 36000  # EMU per millimetre
    doc = docx.Document()
    doc.core_properties.author = P["author"]

    def portrait(section):
        section.page_width = Emu(round(P["page_mm"][0] * MM))
        section.page_height = Emu(round(P["page_mm"][1] * MM))
        for side in ("left", "right", "top", "bottom"):
            setattr(section, f"{side}_margin", Emu(round(P["start_margin_mm"] * MM)))

    portrait(doc.sections[0])
    doc.add_paragraph(P["title"], style="Title")
    for text in P["body"]:
        doc.add_paragraph(text)
    portrait(doc.add_section(WD_SECTION.NEW_PAGE))
    doc.add_paragraph(P["appendix_heading"], style="Heading 1")
    table = doc.add_table(rows=1, cols=len(P["columns"]))
    table.style = "Table Grid"
    for cell, name in zip(table.rows[0].cells, P["columns"], strict=True):
        cell.text = name
    for row in P["rows"]:
        for cell, value in zip(table.add_row().cells, row, strict=True):
            cell.text = value
    doc.add_paragraph(P["appendix_note"])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def golden_patch(P):
    _set_appendix_page(P, ("left", "right", "top", "bottom"))


def near_miss(P):
    # Landscape done, but only the top and bottom margins were changed.
    _set_appendix_page(P, ("top", "bottom"))


def reward(P):
    import docx

    MM = 36000  # EMU per millimetre
    cache = {}

    def split():
        """(body sections, appendix sections) of the saved document, read once inside a component."""
        if not cache:
            doc = docx.Document(HOME / P["path"])
            first = section_index_of(doc, P["appendix_heading"])
            sections = list(doc.sections)
            cache["parts"] = (sections[:first], sections[first:]) if first else (sections, [])
        return cache["parts"]

    short_side, long_side = (round(v * MM) for v in P["page_mm"])
    tolerance = round(0.5 * MM)  # LibreOffice stores 1/100 mm, docx stores twips: allow rounding

    def near(value, target):
        return value is not None and abs(int(value) - target) <= tolerance

    def body_untouched():
        """Landscape/margins belong to the appendix only; the body pages keep their setup."""
        start = round(P["start_margin_mm"] * MM)
        return all(near(s.page_width, short_side) and near(s.page_height, long_side)
                   and all(near(getattr(s, f"{side}_margin"), start) for side in ("left", "right", "top", "bottom"))
                   for s in split()[0])  # fmt: skip

    @precondition("the appendix heading still starts a section after the report body")
    def appendix_found():
        body, appendix = split()
        return bool(body) and bool(appendix)

    @component("appendix pages are landscape on the same paper, body pages still portrait", 0.5)
    def appendix_landscape():
        appendix = split()[1]
        landscape = bool(appendix) and all(near(s.page_width, long_side) and near(s.page_height, short_side)
                                           for s in appendix)  # fmt: skip
        return landscape and body_untouched()

    @component("appendix margins are all set to the requested size, body margins unchanged", 0.5)
    def appendix_margins():
        target = round(P["margin_mm"] * MM)
        sides = [near(getattr(s, f"{side}_margin"), target) for s in split()[1]
                 for side in ("left", "right", "top", "bottom")]  # fmt: skip
        if not sides or not body_untouched():
            return 0.0
        return sum(sides) / len(sides)


class LandscapeAppendix(Family):
    id = "writer.landscape_appendix"
    apps = ("writer",)
    difficulty = Difficulty.MEDIUM
    leaves = ("writer/page_layout/page_style/orientation", "writer/page_layout/page_style/margins",
              "writer/page_layout/breaks/page_style_break")  # fmt: skip
    domains = (Domain.TRANSPORTATION, Domain.HEALTHCARE, Domain.SCIENCE, Domain.COMPUTER_MATH, Domain.SALES)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC)
    helpers = (section_index_of, _set_appendix_page)
    templates = {
        Wording.IMPERATIVE: "In {file}, make the appendix pages (from the heading \"{heading}\" to the end) "
        "landscape on the same {paper} paper, with all four margins at {margin} cm. The report pages before "
        "it must stay portrait with their current margins. Save as .docx.",
        Wording.REQUEST: "The wide table in the appendix of {file} is cut off. Could you switch just the "
        "appendix (starting at \"{heading}\") to landscape {paper} with {margin} cm margins on every side, "
        "and leave the rest of the report portrait as it is? Keep it a .docx.",
        Wording.CONTEXTUAL: "As {persona}, I print {file} for the review meeting. The appendix \"{heading}\" "
        "needs landscape pages ({paper}, {margin} cm margins all round) so the table fits, while the "
        "main report keeps its portrait layout and margins. Save the .docx.",
        Wording.GOAL: "Goal: in {file}, every page from \"{heading}\" onward is landscape {paper} with "
        "left, right, top and bottom margins of {margin} cm; earlier pages remain portrait with "
        "unchanged margins. File saved as .docx.",
        Wording.PROBLEM_FIX: "The appendix table in {file} runs off the page. Fix the page setup so the "
        "section starting at \"{heading}\" is landscape ({paper}, {margin} cm margins on all sides) "
        "without turning the report body landscape or changing its margins. Save as .docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        topic, caption, columns = rng.choice(TOPICS)
        start = rng.choice([20.0, 25.0, 25.4, 30.0])
        margin = rng.choice([m for m in (10.0, 12.5, 15.0, 18.0, 20.0) if m != start])
        names = ["North", "South", "East", "West", "Central", "Harbour", "Airport", "Hill"]
        rows = []
        for label in rng.sample(names, rng.randint(4, 7)):
            rows.append([label, rng.choice(["A. Reyes", "B. Ito", "C. Okafor", "D. Weiss"]),
                         *[str(rng.randint(10, 999)) for _ in columns[2:]]])  # fmt: skip
        letter = rng.choice("BCD")
        year = rng.randint(2020, 2026)
        paper = rng.choice(sorted(PAPERS))
        return {
            "path": f"Documents/{topic.replace(' ', '_')}_report_{year}.docx",
            "title": f"{topic.title()} report {year}",
            "paper": paper,
            "page_mm": PAPERS[paper],
            "start_margin_mm": start,
            "margin_mm": margin,
            "body": rng.sample(BODY, 3),
            "appendix_heading": f"Appendix {letter}: {caption}",
            "columns": columns,
            "rows": rows,
            "appendix_note": "Values are as reported by each site at month end.",
            "author": rng.choice(["L. Moreau", "P. Svensson", "N. Adeyemi", "H. Sato"]),
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "heading": P["appendix_heading"], "paper": P["paper"],
                "margin": f"{P['margin_mm'] / 10:g}"}  # fmt: skip

    def context(self, P: dict) -> str:
        w, h = P["page_mm"]
        return (
            f"~/{P['path']} has two sections, both portrait {P['paper']} ({w}x{h} mm) with "
            f"{P['start_margin_mm']} mm margins: the report body ({P['title']!r} + {len(P['body'])} "
            f"paragraphs) and, after a page break, the appendix {P['appendix_heading']!r} with a "
            f"{len(P['columns'])}-column table. Expected: every section from the appendix heading on is "
            f"{h}x{w} mm with {P['margin_mm']} mm margins on all four sides (±0.5 mm); earlier sections "
            f"unchanged."
        )
