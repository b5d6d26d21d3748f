"""Writer: landscape appendix pages with given margins, body still portrait. Data and wording: landscape_appendix.yaml.

The appendix holds a wide table, so its pages need a second page style (a .docx section), not a
landscape document.
"""

from skills.kit.guest.docs import add_table, new_doc, norm, open_doc, save_doc, text_of, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    topic, caption, columns = rng.choice(pools["topics"])
    start = rng.choice([20.0, 25.0, 25.4, 30.0])
    margin = rng.choice([m for m in (10.0, 12.5, 15.0, 18.0, 20.0) if m != start])
    rows = []
    for label in rng.sample(pools["sites"], rng.randint(4, 7)):
        rows.append([label, rng.choice(pools["owners"]), *[str(rng.randint(10, 999)) for _ in columns[2:]]])
    letter, year, paper = rng.choice("BCD"), rng.randint(2020, 2026), rng.choice(sorted(pools["papers"]))
    return {
        "path": f"Documents/{topic.replace(' ', '_')}_report_{year}.docx",
        "title": f"{topic.title()} report {year}",
        "paper": paper,
        "page_mm": pools["papers"][paper],
        "start_margin_mm": start,
        "margin_mm": margin,
        "body": rng.sample(pools["body"], 3),
        "appendix_heading": f"Appendix {letter}: {caption}",
        "columns": columns,
        "rows": rows,
        "appendix_note": "Values are as reported by each site at month end.",
        "author": rng.choice(["L. Moreau", "P. Svensson", "N. Adeyemi", "H. Sato"]),
    }


def section_index_of(doc, text):
    """Index in doc.sections of the section holding the first body paragraph whose text is `text`.

    A section ends at the paragraph carrying a w:sectPr (the last section at the body's own sectPr),
    which is how both Word and LibreOffice store page-style changes in .docx."""
    index = 0
    for paragraph in doc.element.body.xpath("./w:p"):
        if text_of(paragraph) == text:
            return index
        index += bool(paragraph.xpath("./w:pPr/w:sectPr"))
    return None


def set_page(section, size_mm, margin_mm, sides=("left", "right", "top", "bottom")):
    """Page size (width, height in mm; the orientation follows; None keeps it) and margins on `sides`."""
    from docx.enum.section import WD_ORIENT
    from docx.shared import Emu

    if size_mm:
        section.orientation = WD_ORIENT.LANDSCAPE if size_mm[0] > size_mm[1] else WD_ORIENT.PORTRAIT
        section.page_width, section.page_height = (Emu(round(mm * 36000)) for mm in size_mm)  # 36000 EMU/mm
    for side in sides:
        setattr(section, f"{side}_margin", Emu(round(margin_mm * 36000)))


def initial_setup(P):
    from docx.enum.section import WD_SECTION

    doc = new_doc(P["author"])
    set_page(doc.sections[0], P["page_mm"], P["start_margin_mm"])
    doc.add_paragraph(P["title"], style="Title")
    for text in P["body"]:
        doc.add_paragraph(text)
    set_page(doc.add_section(WD_SECTION.NEW_PAGE), P["page_mm"], P["start_margin_mm"])
    doc.add_paragraph(P["appendix_heading"], style="Heading 1")
    add_table(doc, [P["columns"], *P["rows"]])
    doc.add_paragraph(P["appendix_note"])
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    doc = open_doc(P["path"])
    size = None if mistake == "margins_only" else P["page_mm"][::-1]
    sides = ("top", "bottom") if mistake == "top_bottom_margins" else ("left", "right", "top", "bottom")
    for section in list(doc.sections)[section_index_of(doc, P["appendix_heading"]) :]:
        set_page(section, size, P["margin_mm"], sides)
    save_doc(doc, P["path"])


def reward(P):
    from functools import cache

    MM = 36000  # EMU per millimetre
    short_side, long_side = (round(v * MM) for v in P["page_mm"])
    sides = ("left", "right", "top", "bottom")

    @cache
    def split():
        """(body sections, appendix sections) of the saved document."""
        doc = open_doc(P["path"])
        first = section_index_of(doc, P["appendix_heading"])
        sections = list(doc.sections)
        return (sections[:first], sections[first:]) if first else (sections, [])

    def near(value, target):  # LibreOffice stores 1/100 mm, docx stores twips: allow rounding
        return value is not None and abs(int(value) - target) <= round(0.5 * MM)

    def shaped(s, landscape):
        width, height = (long_side, short_side) if landscape else (short_side, long_side)
        return near(s.page_width, width) and near(s.page_height, height)

    def margins(s, mm):
        return [near(getattr(s, f"{side}_margin"), round(mm * MM)) for side in sides]

    def body_untouched():
        """Landscape/margins belong to the appendix only; the body pages keep their setup."""
        return all(shaped(s, False) and all(margins(s, P["start_margin_mm"])) for s in split()[0])

    @precondition("the appendix heading still starts a section after the report body")
    def appendix_found():
        return all(split())

    @precondition("the report's paragraphs and the appendix table are all still there")
    def text_intact():
        doc = open_doc(P["path"])
        cells = [[norm(c.text) for c in row.cells] for table in doc.tables for row in table.rows]
        texts = [P["title"], *P["body"], P["appendix_heading"], P["appendix_note"]]
        return texts_kept(doc, texts) and cells == [list(map(norm, r)) for r in [P["columns"], *P["rows"]]]

    @component("appendix pages are landscape on the same paper, body pages still portrait", 0.5)
    def appendix_landscape():
        appendix = split()[1]
        return bool(appendix) and all(shaped(s, True) for s in appendix) and body_untouched()

    @component("appendix margins are all set to the requested size, body margins unchanged", 0.5)
    def appendix_margins():
        found = [ok for s in split()[1] for ok in margins(s, P["margin_mm"])]
        return sum(found) / len(found) if found and body_untouched() else 0.0


def demonstrate(P, screen):
    """Writer is open on the report: with the cursor in the appendix (its own page style), Format >
    Page Style > Page: Landscape and the four margins typed in mm; OK, save keeping docx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    click = lambda element: {"action": "left_click", "coordinate": list(element.center)}  # noqa: E731
    yield [key("ctrl", "end"), key("alt", "o")]  # the document ends in the appendix
    item = screen.find(
        lambda e: "menu-item" in e.role and e.name.startswith("Page Style"), what="Format > Page Style"
    )
    yield [click(item)]
    screen.wait_until(lambda: screen.has_window("Page Style"), what="the Page Style dialog")
    tab = screen.find(lambda e: e.role == "page-tab" and e.name == "Page", what="the Page tab")
    yield [click(tab)]
    landscape = screen.find(lambda e: e.role == "radio-button" and e.name == "Landscape", what="Landscape")
    yield [click(landscape)]  # swaps width and height of the same paper
    for side in ("Left", "Right", "Top", "Bottom"):
        label = screen.find(
            lambda e, side=side: e.role == "label" and e.name == f"{side}:", what=f"the {side} label"
        )
        row = label.y + label.h // 2
        field = screen.find(
            lambda e, row=row, label=label: (
                e.role == "spin-button" and e.x > label.x and abs(e.y + e.h // 2 - row) < 15
            ),
            what=f"the {side} margin",
        )
        # The fields show inches; a typed unit is converted. Tab commits the value. The click goes to
        # the text part, left of the field's -/+ buttons.
        yield [
            {"action": "triple_click", "coordinate": [field.x + 20, field.y + field.h // 2]},
            {"action": "type", "text": f"{P['margin_mm']:g} mm\t"},
        ]
    ok = screen.find(lambda e: e.role == "push-button" and e.name == "OK", what="the dialog's OK")
    yield [click(ok)]
    screen.wait_until(lambda: not screen.has_window("Page Style"), what="the dialog to close")
    yield from save_keeping_format(screen)
