"""Guest helpers shared by the Impress families (python-pptx): the renderer ships whichever of them a
guest function reaches, so each one imports what it needs inside its body and uses nothing but its
arguments and HOME.
"""

from __future__ import annotations

from skills.kit.guest import HOME


def norm(text):
    """Whitespace collapsed; typographic dashes and quotes folded (LibreOffice AutoCorrect)."""
    folded = str(text or "").translate(
        str.maketrans("\u2013\u2014\u2018\u2019\u201c\u201d\u00a0", "--''\"\" ")
    )
    return " ".join(folded.split())


def placeholders_of(slide, kinds):
    """Placeholders of the given PP_PLACEHOLDER names ("TITLE", "BODY", ...), in shape order."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    wanted = [getattr(PP_PLACEHOLDER, k) for k in kinds]
    return [s for s in slide.placeholders if s.placeholder_format.type in wanted]


def title_shape(slide):
    """The title placeholder (type title or ctrTitle), or None. Not slide.shapes.title: that returns the
    first placeholder with idx 0, and LibreOffice saves the content placeholder as a bare <p:ph/> whose
    idx is 0 too."""
    found = placeholders_of(slide, ["TITLE", "CENTER_TITLE"])
    return found[0] if found else None


def slide_title(slide):
    """The title placeholder's text, normalised ("" when the slide has none)."""
    shape = title_shape(slide)
    return norm(shape.text_frame.text) if shape is not None else ""


def new_deck():
    """An empty 16:9 presentation (LibreOffice's default slide size) on python-pptx's default template."""
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    return prs


def add_slide(prs, layout, title, lines=()):
    """Append a slide of the template's layout number `layout` (0 Title Slide, 1 Title and Content,
    5 Title Only) titled `title`, its second placeholder holding `lines`, one paragraph each."""
    slide = prs.slides.add_slide(prs.slide_layouts[layout])
    slide.shapes.title.text = title
    if lines:
        slide.placeholders[1].text_frame.text = "\n".join(lines)
    return slide


def open_deck(path):
    """The presentation at ~/`path` (relative to HOME)."""
    from pptx import Presentation

    return Presentation(HOME / path)


def save_deck(prs, path):
    """Save `prs` to ~/`path`, creating its folder."""
    (HOME / path).parent.mkdir(parents=True, exist_ok=True)
    prs.save(HOME / path)


def arrange_slides(prs, titles):
    """Keep exactly the slides titled `titles`, in that order. python-pptx has no public API to move
    or delete a slide: rewrite the slide id list and drop the link to each removed slide's part."""
    id_list = prs.slides._sldIdLst
    by_title = {slide_title(slide): sld_id for slide, sld_id in zip(prs.slides, list(id_list), strict=True)}
    for title, sld_id in by_title.items():
        id_list.remove(sld_id)
        if title not in titles:
            prs.part.drop_rel(sld_id.rId)
    for title in titles:
        id_list.append(by_title[title])


def slide_texts(path):
    """[(title, lines)] for each slide of the deck at ~/`path`, in order: the title placeholder's text
    and the non-blank paragraphs of its subtitle and content placeholders, all normalised (what a
    check that the text a task leaves alone is intact compares)."""
    found = []
    for slide in open_deck(path).slides:
        shapes = [s for s in placeholders_of(slide, ["SUBTITLE", "BODY", "OBJECT"]) if s.has_text_frame]
        lines = [norm(p.text) for s in shapes for p in s.text_frame.paragraphs if norm(p.text)]
        found.append((slide_title(slide), lines))
    return found
