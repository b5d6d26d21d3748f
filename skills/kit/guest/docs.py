"""Guest helpers shared by the Writer families (python-docx): the renderer ships whichever of them a
guest function reaches, so each one imports what it needs inside its body.

`norm` is the one text fold of the office families (LibreOffice's AutoCorrect dashes and quotes),
shared with the Impress helpers.
"""

from __future__ import annotations

from skills.kit.guest import HOME
from skills.kit.guest.slides import norm


def new_doc(author):
    """A blank document (python-docx's default template) with `author` in its core properties."""
    import docx

    doc = docx.Document()
    doc.core_properties.author = author
    return doc


def open_doc(path):
    """The document at ~/`path` (relative to HOME)."""
    import docx

    return docx.Document(HOME / path)


def save_doc(doc, path):
    """Save `doc` to ~/`path`, creating its folder."""
    (HOME / path).parent.mkdir(parents=True, exist_ok=True)
    doc.save(HOME / path)


def text_of(element):
    """The normalised text of every w:t under an XML element (a paragraph, a cell, a table)."""
    from docx.oxml.ns import qn

    return norm("".join(t.text or "" for t in element.iter(qn("w:t"))))


def add_table(doc, rows):
    """Append a "Table Grid" table holding `rows` (lists of cell texts) to `doc` and return it."""
    table = doc.add_table(rows=0, cols=len(rows[0]))
    table.style = "Table Grid"
    for row in rows:
        for cell, value in zip(table.add_row().cells, row, strict=True):
            cell.text = value
    return table


def char_flags(paragraph):
    """(text, [(bold, italic) per character]) with run, character-style and paragraph-style
    inheritance resolved; runs inside hyperlinks included."""
    from docx.oxml.ns import qn
    from docx.text.run import Run

    def resolve(run, attr):
        value = getattr(run.font, attr)
        for style in (run.style, paragraph.style):
            while value is None and style is not None:
                value = getattr(style.font, attr)
                style = style.base_style
        return bool(value)

    text, flags = "", []
    for element in paragraph._p.iter(qn("w:r")):
        run = Run(element, paragraph)
        text += run.text
        flags += [(resolve(run, "bold"), resolve(run, "italic"))] * len(run.text)
    return text, flags


def list_format(doc, paragraph):
    """numFmt ("bullet", "decimal", ...) of the list a paragraph belongs to, or None.

    Numbering may be direct (LibreOffice's toolbar list button) or come from the paragraph style
    ("List Bullet"); numId 0 means the list was switched off."""
    numpr, style = paragraph._p.xpath("./w:pPr/w:numPr"), paragraph.style
    while not numpr and style is not None:
        numpr, style = style.element.xpath("./w:pPr/w:numPr"), style.base_style
    num_id = numpr[0].xpath("./w:numId/@w:val") if numpr else []
    if not num_id or num_id[0] == "0":
        return None
    level = (numpr[0].xpath("./w:ilvl/@w:val") or ["0"])[0]
    numbering = doc.part.numbering_part.element
    for abstract in numbering.xpath(f'./w:num[@w:numId="{num_id[0]}"]/w:abstractNumId/@w:val'):
        found = numbering.xpath(
            f'./w:abstractNum[@w:abstractNumId="{abstract}"]/w:lvl[@w:ilvl="{level}"]/w:numFmt/@w:val'
        )
        if found:
            return found[0]
    return None


def texts_kept(doc, texts):
    """Whether every text in `texts` is still the text of a body paragraph of `doc` (normalised), as
    often as it is listed: the text a task does not touch is intact (deleted or edited fails)."""
    from collections import Counter

    return not Counter(map(norm, texts)) - Counter(norm(p.text) for p in doc.paragraphs)
