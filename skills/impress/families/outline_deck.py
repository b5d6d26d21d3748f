"""Impress (hard): build a deck from a text outline and export it to PDF. Data and wording: outline_deck.yaml.

The PDF is checked with pypdf (page count, each page's title text), so exporting before the deck was
finished (a stale PDF) is caught.
"""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import add_slide, new_deck, norm, open_deck, placeholders_of, save_deck


def draw(rng, pools):
    topic = rng.choice(sorted(pools["topics"]))
    chosen = sorted(rng.sample(range(len(pools["topics"][topic])), rng.randint(3, 5)))
    sections = [[h, rng.sample(b, len(b))] for h, b in (pools["topics"][topic][i] for i in chosen)]
    year = rng.randint(2024, 2027)
    slug = f"{topic.lower().replace(' ', '_')}_{year}"
    return {
        "title": f"{topic} {year}",
        "subtitle": rng.choice(pools["subtitles"]),
        "sections": sections,
        "outline": f"Documents/{slug}_outline.txt",
        "deck": f"Desktop/{slug}.pptx",
        "pdf": f"Desktop/{slug}.pdf",
    }


def write_pdf(path, pages):
    """A PDF with one page per entry, each entry a list of text lines (what a slide export holds)."""
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, DictionaryObject, NameObject

    def pdf_dict(**entries):
        return DictionaryObject({NameObject(f"/{k}"): v for k, v in entries.items()})

    writer = PdfWriter()
    names = {"Type": "Font", "Subtype": "Type1", "BaseFont": "Helvetica", "Encoding": "WinAnsiEncoding"}
    font = pdf_dict(**{key: NameObject(f"/{value}") for key, value in names.items()})
    for lines in pages:
        page = writer.add_blank_page(width=720, height=405)
        page[NameObject("/Resources")] = pdf_dict(Font=pdf_dict(F1=font))
        escaped = [line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for line in lines]
        shown = [f"({line}) Tj\n0 -34 Td" for line in escaped]
        stream = ContentStream(None, None)
        stream.set_data("\n".join(["BT", "/F1 24 Tf", "48 340 Td", *shown, "ET"]).encode("cp1252"))
        page.replace_contents(stream)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer.write(path)


def initial_setup(P):
    lines = [f"Deck title: {P['title']}", f"Subtitle: {P['subtitle']}", ""]
    for heading, bullets in P["sections"]:
        lines += [f"## {heading}", *[f"- {b}" for b in bullets], ""]
    (HOME / P["outline"]).parent.mkdir(parents=True, exist_ok=True)
    (HOME / P["outline"]).write_text("\n".join(lines), encoding="utf-8")


def solve(P, *, mistake=None):
    prs = new_deck()
    pages = [[P["title"]] if mistake == "no_subtitle" else [P["title"], P["subtitle"]]]
    add_slide(prs, 0, P["title"], pages[0][1:])  # Title Slide
    for heading, bullets in P["sections"]:
        add_slide(prs, 1, heading, bullets)  # Title and Content
        pages.append([heading, *bullets])
    save_deck(prs, P["deck"])
    write_pdf(HOME / P["pdf"], pages[:-1] if mistake == "stale_pdf" else pages)


def reward(P):
    import unicodedata
    from functools import cache

    from pypdf import PdfReader

    sections, titles = P["sections"], ["TITLE", "CENTER_TITLE"]
    deck_slides = cache(lambda: list(open_deck(P["deck"]).slides))  # read inside a component

    def fold(text):
        return norm(text).casefold()

    def squash(text):
        """Compare PDF text without layout: NFKC (ligatures), no whitespace, casefolded."""
        return "".join(unicodedata.normalize("NFKC", norm(text)).split()).casefold()

    def text_of(slide, kinds):
        return fold(" ".join(s.text_frame.text for s in placeholders_of(slide, kinds)))

    def lines_of(slide):
        shapes = placeholders_of(slide, ["BODY", "OBJECT"])
        return [fold(p.text) for s in shapes for p in s.text_frame.paragraphs if norm(p.text)]

    @precondition("the outline file is still there")
    def outline_kept():
        return "## " in (HOME / P["outline"]).read_text(encoding="utf-8")

    @component("the deck has one title slide plus one slide per outline section", 0.15)
    def slide_count():
        return len(deck_slides()) == len(sections) + 1

    @component("slide 1 is a title slide with the deck title and the subtitle", 0.2)
    def title_slide():
        first = deck_slides()[0]
        return text_of(first, titles) == fold(P["title"]) and text_of(first, ["SUBTITLE"]) == fold(
            P["subtitle"]
        )

    @component("section slides carry the section headings as titles, in outline order", 0.15)
    def section_titles():
        found = [text_of(s, titles) for s in deck_slides()[1:]]
        return sum(found[i : i + 1] == [fold(h)] for i, (h, _) in enumerate(sections)) / len(sections)

    @component("each section slide lists its bullets in a content placeholder", 0.25)
    def section_bullets():
        found = [lines_of(s) for s in deck_slides()[1:]]
        expected = [[fold(b) for b in bullets] for _, bullets in sections]
        return sum(found[i : i + 1] == [want] for i, want in enumerate(expected)) / len(sections)

    @component("the PDF export has one page per slide, each showing its slide's title", 0.25)
    def pdf_export():
        pages = PdfReader(HOME / P["pdf"]).pages
        names = [P["title"]] + [h for h, _ in sections]
        hits = [squash(t) in squash(page.extract_text()) for t, page in zip(names, pages, strict=False)]
        return sum(hits) / len(names) if len(pages) == len(names) else 0.0
