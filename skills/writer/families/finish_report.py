"""Writer (hard): finish a quarterly report draft in four independent edits. Data and wording: finish_report.yaml.

1. the tab-separated figures under "Key figures" become a real table (Table > Convert > Text to Table),
2. the action items under "Next steps" become a bulleted list,
3. every page gets a footer line,
4. the document's Title property (File > Properties) is set.
"""

from skills.kit.guest.docs import add_table, list_format, new_doc, open_doc, save_doc, text_of, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import norm  # the office families' one text fold


def draw(rng, pools):
    team = rng.choice(sorted(pools["teams"]))
    header, labels = pools["teams"][team]
    quarter, year = rng.randint(1, 4), rng.randint(2023, 2026)
    rows = [header]
    for label in rng.sample(labels, rng.randint(3, len(labels))):
        rows.append([label, *[str(rng.randint(3, 980)) for _ in header[1:]]])
    company = rng.choice(pools["companies"])
    return {
        "path": f"Documents/{team}_q{quarter}_{year}_draft.docx",
        "heading": f"{team.title()} quarterly report, Q{quarter} {year}",
        "doc_title": f"{team.title()} Q{quarter} {year} report",
        "footer": f"{company}, internal use only",
        "summary": rng.sample(pools["summary"], 2),
        "figures_intro": f"Figures for Q{quarter} as of the last working day of the quarter:",
        "rows": rows,
        "actions_intro": "The team agreed the following actions:",
        "actions": rng.sample(pools["actions"], rng.randint(3, 5)),
        "contact": f"Questions to the {team} team lead, {rng.choice(['Ines Duarte', 'Olu Bello', 'Ken Mori'])}.",
        "author": rng.choice(["I. Duarte", "O. Bello", "K. Mori", "S. Novak"]),
    }


def initial_setup(P):
    doc = new_doc(P["author"])
    doc.core_properties.title = ""
    doc.add_paragraph(P["heading"], style="Title")
    headings = ("Summary", "Key figures", "Next steps", "Contacts")
    figures = [P["figures_intro"], *map("\t".join, P["rows"])]
    blocks = (P["summary"], figures, [P["actions_intro"], *P["actions"]], [P["contact"]])
    for heading, paragraphs in zip(headings, blocks, strict=True):
        doc.add_paragraph(heading, style="Heading 1")
        for text in paragraphs:
            doc.add_paragraph(text)
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    doc = open_doc(P["path"])
    sources = [p for p in doc.paragraphs if p.text in ["\t".join(row) for row in P["rows"]]]
    sources[0]._p.addprevious(add_table(doc, P["rows"])._tbl)
    for paragraph in sources:
        paragraph._p.getparent().remove(paragraph._p)
    for paragraph in doc.paragraphs:
        if paragraph.text in P["actions"]:
            paragraph.style = doc.styles["List Bullet"]
    section = doc.sections[0]
    (section.header if mistake == "footer_in_header" else section.footer).paragraphs[0].text = P["footer"]
    if mistake != "no_title_property":
        doc.core_properties.title = P["doc_title"]
    save_doc(doc, P["path"])


def reward(P):
    from functools import cache

    from docx.oxml.ns import qn

    rows = [[norm(c) for c in row] for row in P["rows"]]
    document = cache(lambda: open_doc(P["path"]))  # read inside a component: a missing file scores 0

    def position(text):
        body = document().element.body.iterchildren()
        return next((i for i, el in enumerate(body) if el.tag == qn("w:p") and text_of(el) == text), None)

    @precondition("the report's text (all but the figure lines) is still there")
    def text_intact():
        texts = [P["heading"], "Summary", *P["summary"], "Key figures", P["figures_intro"], "Next steps"]
        return texts_kept(document(), [*texts, P["actions_intro"], *P["actions"], "Contacts", P["contact"]])

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
