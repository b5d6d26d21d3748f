"""Writer (hard): finish a quarterly report draft in four independent edits.

1. the tab-separated figures under "Key figures" become a real table (Table > Convert > Text to Table),
2. the action items under "Next steps" become a bulleted list,
3. every page gets a footer line,
4. the document's Title property (File > Properties) is set.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

TEAMS = {
    "sales": (["Region", "Orders", "Revenue", "Returns"], ["North", "South", "East", "West", "Online"]),
    "support": (["Channel", "Tickets", "Median reply (h)", "CSAT"], ["Email", "Phone", "Chat", "Portal"]),
    "laboratory": (["Instrument", "Runs", "Failures", "Uptime %"], ["HPLC-1", "HPLC-2", "GC-MS", "ICP-OES", "PCR-3"]),
    "people": (["Department", "Headcount", "Hires", "Leavers"], ["Finance", "Operations", "IT", "Marketing", "Legal"]),
    "logistics": (["Route", "Shipments", "On time %", "Damaged"], ["Lyon-Paris", "Hamburg-Berlin", "Porto-Lisbon", "Turin-Milan"]),
}  # fmt: skip
COMPANIES = ["Northwind Ltd", "Bluefield GmbH", "Kestrel & Co", "Ardent Systems", "Larchmont Foods", "Veloria SA"]
ACTIONS = [
    "Agree the revised targets with finance before the next board meeting.",
    "Publish the updated process guide on the intranet.",
    "Schedule a follow-up review for the start of next quarter.",
    "Hire two temporary staff to cover the seasonal peak.",
    "Retire the legacy reporting spreadsheet.",
    "Share the customer survey results with every team lead.",
    "Renew the maintenance contract for the main site.",
    "Run a training session on the new ticketing workflow.",
]
SUMMARY = [
    "The quarter closed slightly ahead of plan despite a slow first month.",
    "Most indicators improved compared with the previous quarter.",
    "Two issues carried over from last quarter were resolved in August.",
]


def norm(text):
    """Whitespace collapsed; typographic dashes and quotes folded (LibreOffice AutoCorrect)."""
    text = str(text or "")
    for fancy, plain in (("\u2013", "-"), ("\u2014", "-"), ("\u2018", "'"), ("\u2019", "'"),
                         ("\u201c", '"'), ("\u201d", '"'), ("\u00a0", " ")):  # fmt: skip
        text = text.replace(fancy, plain)
    return " ".join(text.split())


def list_format(doc, paragraph):
    """numFmt ("bullet", "decimal", ...) of the list a paragraph belongs to, or None.

    Numbering may be direct (LibreOffice's toolbar list button) or come from the paragraph style
    ("List Bullet"); numId 0 means the list was switched off."""
    from docx.oxml.ns import qn

    numpr, style = None, paragraph.style
    ppr = paragraph._p.pPr
    if ppr is not None:
        numpr = ppr.find(qn("w:numPr"))
    while numpr is None and style is not None:
        style_ppr = style.element.find(qn("w:pPr"))
        numpr = style_ppr.find(qn("w:numPr")) if style_ppr is not None else None
        style = style.base_style
    num_id = numpr.find(qn("w:numId")) if numpr is not None else None
    if num_id is None or num_id.get(qn("w:val")) == "0":
        return None
    ilvl = numpr.find(qn("w:ilvl"))
    level = ilvl.get(qn("w:val")) if ilvl is not None else "0"
    numbering = doc.part.numbering_part.element
    abstract_ids = [n.find(qn("w:abstractNumId")).get(qn("w:val")) for n in numbering.findall(qn("w:num"))
                    if n.get(qn("w:numId")) == num_id.get(qn("w:val"))]  # fmt: skip
    for abstract in numbering.findall(qn("w:abstractNum")):
        if abstract.get(qn("w:abstractNumId")) in abstract_ids:
            for lvl in abstract.findall(qn("w:lvl")):
                fmt = lvl.find(qn("w:numFmt"))
                if lvl.get(qn("w:ilvl")) == level and fmt is not None:
                    return fmt.get(qn("w:val"))
    return None


def initial_setup(P):
    import docx

    doc = docx.Document()
    doc.core_properties.author = P["author"]
    doc.core_properties.title = ""
    doc.add_paragraph(P["heading"], style="Title")
    doc.add_paragraph("Summary", style="Heading 1")
    for text in P["summary"]:
        doc.add_paragraph(text)
    doc.add_paragraph("Key figures", style="Heading 1")
    doc.add_paragraph(P["figures_intro"])
    for row in P["rows"]:
        doc.add_paragraph("\t".join(row))
    doc.add_paragraph("Next steps", style="Heading 1")
    doc.add_paragraph(P["actions_intro"])
    for text in P["actions"]:
        doc.add_paragraph(text)
    doc.add_paragraph("Contacts", style="Heading 1")
    doc.add_paragraph(P["contact"])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def _finish(P, footer_in_header):
    import docx

    path = HOME / P["path"]
    doc = docx.Document(path)
    raw = ["\t".join(row) for row in P["rows"]]
    sources = [p for p in doc.paragraphs if p.text in raw]
    table = doc.add_table(rows=0, cols=len(P["rows"][0]))
    table.style = "Table Grid"
    for row in P["rows"]:
        for cell, value in zip(table.add_row().cells, row, strict=True):
            cell.text = value
    sources[0]._p.addprevious(table._tbl)
    for paragraph in sources:
        paragraph._p.getparent().remove(paragraph._p)
    for paragraph in doc.paragraphs:
        if paragraph.text in P["actions"]:
            paragraph.style = doc.styles["List Bullet"]
    section = doc.sections[0]
    target = section.header if footer_in_header else section.footer
    target.paragraphs[0].text = P["footer"]
    doc.core_properties.title = P["doc_title"]
    doc.save(path)


def golden_patch(P):
    _finish(P, footer_in_header=False)


def near_miss(P):
    # Everything right except the footer line, which went into the page header.
    _finish(P, footer_in_header=True)


def reward(P):
    import docx
    from docx.oxml.ns import qn

    rows = [[norm(c) for c in row] for row in P["rows"]]
    cache = {}

    def document():
        """The saved report, read once inside a component (a missing file scores 0, not a crash)."""
        if not cache:
            cache["doc"] = docx.Document(HOME / P["path"])
        return cache["doc"]

    def position(text):
        for index, element in enumerate(document().element.body.iterchildren()):
            if element.tag == qn("w:p") and norm("".join(t.text or "" for t in element.iter(qn("w:t")))) == text:
                return index
        return None

    @precondition("the report's headings and action items are still there")
    def text_intact():
        texts = [norm(p.text) for p in document().paragraphs]
        return all(t in texts for t in ["Key figures", "Next steps", *map(norm, P["actions"])])

    @component("the figures are a table under Key figures with the right rows", 0.35)
    def figures_table():
        doc = document()
        body = list(doc.element.body.iterchildren())
        start, end = position("Key figures"), position("Next steps")
        best = 0.0
        for table in doc.tables:
            cells = [[norm(c.text) for c in row.cells] for row in table.rows]
            matched = sum(i < len(cells) and cells[i] == row for i, row in enumerate(rows)) / len(rows)
            placed = start is not None and end is not None and start < body.index(table._tbl) < end
            best = max(best, matched * (1.0 if placed else 0.5))
        leftover = any([norm(c) for c in p.text.split("\t")] in rows for p in doc.paragraphs)
        return best * (0.5 if leftover else 1.0)

    @component("the action items are a bulleted list (and nothing else is)", 0.25)
    def actions_bulleted():
        doc = document()
        actions = set(norm(a) for a in P["actions"])
        bulleted = [norm(p.text) for p in doc.paragraphs if list_format(doc, p) == "bullet"]
        if any(text not in actions for text in bulleted if text):
            return 0.0
        return sum(a in bulleted for a in actions) / len(actions)

    @component("the page footer reads the requested line", 0.2)
    def footer_text():
        found = []
        for section in document().sections:
            for footer in (section.footer, section.first_page_footer, section.even_page_footer):
                if not footer.is_linked_to_previous:  # reading a linked footer would create one
                    found.append(norm("\n".join(p.text for p in footer.paragraphs)))
        return any(norm(P["footer"]) in text for text in found)

    @component("the document Title property is set", 0.2)
    def title_property():
        return norm(document().core_properties.title).casefold() == norm(P["doc_title"]).casefold()


class FinishReport(Family):
    id = "writer.finish_report"
    apps = ("writer",)
    difficulty = Difficulty.HARD
    leaves = ("writer/tables/create/text_to_table", "writer/formatting/lists/bulleted_list",
              "writer/page_layout/header_footer/footer_text", "writer/document/properties/title_subject")  # fmt: skip
    domains = (Domain.MANAGEMENT, Domain.SALES, Domain.SCIENCE, Domain.OFFICE_ADMIN, Domain.TRANSPORTATION)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC)
    helpers = (norm, list_format, _finish)
    templates = {
        Wording.IMPERATIVE: "Finish the draft {file}: (1) turn the tab-separated lines under \"Key figures\" "
        "(header {header}) into a table with one row per line; (2) make the {n_actions} action items under "
        "\"Next steps\" a bulleted list; (3) add a page footer reading \"{footer}\"; (4) set the document's "
        "Title property to \"{doc_title}\". Save it as .docx.",
        Wording.REQUEST: "Could you tidy up {file} before it goes out? The figures under \"Key figures\" are "
        "plain tab-separated text (header {header}) and should be a proper table; the {n_actions} actions "
        "under \"Next steps\" should be bullet points; every page needs the footer \"{footer}\"; and the "
        "file's Title property should be \"{doc_title}\". Keep it a .docx.",
        Wording.CONTEXTUAL: "As {persona}, I send {file} to the board tomorrow. It still needs: the "
        "tab-separated figures in \"Key figures\" (columns {header}) converted into a table, the "
        "{n_actions} \"Next steps\" actions shown as a bulleted list, the footer \"{footer}\" on each page, "
        "and \"{doc_title}\" as the document title in its properties. Save it as .docx.",
        Wording.GOAL: "Goal: {file} has a table holding the \"Key figures\" data (header {header}) in "
        "place of the tab-separated lines, the {n_actions} actions under \"Next steps\" as a bulleted "
        "list, the footer text \"{footer}\", and the Title property \"{doc_title}\". Saved as .docx.",
        Wording.PROBLEM_FIX: "{file} is not ready: its key figures are tab-separated text instead of a "
        "table (header {header}), the {n_actions} next-step actions are not bulleted, there is no footer "
        "(it should read \"{footer}\"), and the document properties have no title (it should be "
        "\"{doc_title}\"). Fix all four and save as .docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        team = rng.choice(sorted(TEAMS))
        header, labels = TEAMS[team]
        quarter, year = rng.randint(1, 4), rng.randint(2023, 2026)
        rows = [header]
        for label in rng.sample(labels, rng.randint(3, len(labels))):
            rows.append([label, *[str(rng.randint(3, 980)) for _ in header[1:]]])
        company = rng.choice(COMPANIES)
        return {
            "path": f"Documents/{team}_q{quarter}_{year}_draft.docx",
            "heading": f"{team.title()} quarterly report, Q{quarter} {year}",
            "doc_title": f"{team.title()} Q{quarter} {year} report",
            "footer": f"{company}, internal use only",
            "summary": rng.sample(SUMMARY, 2),
            "figures_intro": f"Figures for Q{quarter} as of the last working day of the quarter:",
            "rows": rows,
            "actions_intro": "The team agreed the following actions:",
            "actions": rng.sample(ACTIONS, rng.randint(3, 5)),
            "contact": f"Questions to the {team} team lead, {rng.choice(['Ines Duarte', 'Olu Bello', 'Ken Mori'])}.",
            "author": rng.choice(["I. Duarte", "O. Bello", "K. Mori", "S. Novak"]),
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "header": " / ".join(P["rows"][0]), "footer": P["footer"],
                "doc_title": P["doc_title"], "n_actions": str(len(P["actions"]))}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']}: Title {P['heading']!r}; Heading 1 sections Summary, Key figures, Next steps, "
            f"Contacts. Under Key figures, {len(P['rows'])} tab-separated paragraphs {P['rows']}; under Next "
            f"steps, after {P['actions_intro']!r}, plain paragraphs {P['actions']}. No footer, empty Title "
            f"property. Expected: a table with exactly those rows between Key figures and Next steps (tab "
            f"lines gone), the actions bulleted (nothing else), a footer containing {P['footer']!r}, "
            f"core Title property {P['doc_title']!r}."
        )
