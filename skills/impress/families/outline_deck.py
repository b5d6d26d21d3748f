"""Impress (hard): build a deck from a text outline and export it to PDF (paper appendix E.1.3 style).

A title slide (Title Slide layout: title + subtitle) followed by one Title, Content slide per outline
section with its bullets, saved as .pptx, then exported as a PDF with one page per slide. The PDF is
checked with pypdf: page count and each page's title text, so exporting before the deck was finished
(a stale PDF) is caught.
"""

from __future__ import annotations

import random

from skills.impress.families._deckkit import norm
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

TOPICS = {
    "Hiring plan": [
        ("Open roles", ["Two backend engineers", "One product designer", "A part-time data analyst"]),
        ("Budget", ["Salaries within the approved band", "Agency fees capped at 15 percent"]),
        ("Timeline", ["Adverts live in week 2", "Interviews in weeks 4 to 6", "Offers by week 8"]),
        ("Interview process", ["Phone screen", "Practical exercise", "Panel interview"]),
        ("Onboarding", ["Buddy for every new starter", "Laptop ready on day one"]),
    ],
    "Community garden project": [
        ("The site", ["Unused plot behind the library", "About 600 square metres"]),
        ("What we will grow", ["Vegetables in raised beds", "A small herb garden", "Fruit trees along the fence"]),
        ("Volunteers", ["Saturday morning work parties", "A rota for watering"]),
        ("Funding", ["Council small grant", "Seed swap and plant sale"]),
        ("First season", ["Clear and fence the plot", "Build six raised beds", "Open day in June"]),
    ],
    "Lab safety induction": [
        ("Before you start", ["Read the risk assessment", "Sign the lab register"]),
        ("Protective equipment", ["Lab coat and goggles at all times", "Gloves chosen for the chemical"]),
        ("Chemical storage", ["Acids and bases kept apart", "Flammables in the yellow cabinet"]),
        ("Spills", ["Use the spill kit by the door", "Report every spill to the supervisor"]),
        ("Emergencies", ["Eye wash station next to sink 3", "Assembly point in the north car park"]),
    ],
    "Cloud cost review": [
        ("Where the money goes", ["Compute is 58 percent of spend", "Storage grew fastest"]),
        ("Quick savings", ["Shut down idle test servers at night", "Delete unattached volumes"]),
        ("Reserved capacity", ["Commit for steady workloads", "Review coverage every quarter"]),
        ("Tagging", ["Every resource tagged with a cost centre", "Untagged resources reported weekly"]),
        ("Next steps", ["Monthly cost report to team leads", "Budget alerts per account"]),
    ],
    "Museum family day": [
        ("Programme", ["Guided tours at 11 and 2", "Dinosaur craft table", "Storytelling corner"]),
        ("Staffing", ["Eight volunteers per shift", "First aider on each floor"]),
        ("Publicity", ["Posters in local schools", "Social media countdown"]),
        ("Budget", ["Craft materials", "Extra cleaning"]),
        ("Feedback", ["Short survey at the exit", "Prize draw for responses"]),
    ],
}  # fmt: skip




def placeholders_of(slide, kinds):
    """Placeholders of the given PP_PLACEHOLDER names ("TITLE", "BODY", ...), in shape order."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    wanted = [getattr(PP_PLACEHOLDER, k) for k in kinds]
    return [s for s in slide.placeholders if s.placeholder_format.type in wanted]


def write_pdf(path, pages):
    """A PDF with one page per entry, each entry a list of text lines (what a slide export holds)."""
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, DictionaryObject, NameObject

    writer = PdfWriter()
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica"),
                             NameObject("/Encoding"): NameObject("/WinAnsiEncoding")})  # fmt: skip
    for lines in pages:
        page = writer.add_blank_page(width=720, height=405)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        ops = ["BT", "/F1 24 Tf", "48 340 Td"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops += [f"({escaped}) Tj", "0 -34 Td"]
        ops.append("ET")
        stream = ContentStream(None, None)
        stream.set_data("\n".join(ops).encode("cp1252"))
        page.replace_contents(stream)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        writer.write(fh)


def initial_setup(P):
    lines = [f"Deck title: {P['title']}", f"Subtitle: {P['subtitle']}", ""]
    for heading, bullets in P["sections"]:
        lines.append(f"## {heading}")
        lines += [f"- {b}" for b in bullets]
        lines.append("")
    path = HOME / P["outline"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def _build(P, pdf_pages):
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    first = prs.slides.add_slide(prs.slide_layouts[0])  # Title Slide
    first.shapes.title.text = P["title"]
    first.placeholders[1].text = P["subtitle"]
    pages = [[P["title"], P["subtitle"]]]
    for heading, bullets in P["sections"]:
        slide = prs.slides.add_slide(prs.slide_layouts[1])  # Title and Content
        slide.shapes.title.text = heading
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for line in bullets[1:]:
            body.add_paragraph().text = line
        pages.append([heading, *bullets])
    deck = HOME / P["deck"]
    deck.parent.mkdir(parents=True, exist_ok=True)
    prs.save(deck)
    write_pdf(HOME / P["pdf"], pages[:pdf_pages])


def golden_patch(P):
    _build(P, pdf_pages=len(P["sections"]) + 1)


def near_miss(P):
    # The deck is right, but the PDF was exported before the last slide was added.
    _build(P, pdf_pages=len(P["sections"]))


def reward(P):
    import unicodedata

    from pptx import Presentation
    from pypdf import PdfReader

    sections = P["sections"]
    loaded = []

    def deck_slides():
        """The saved deck's slides, read once, inside a component (a missing deck scores 0, not a crash)."""
        if not loaded:
            loaded.append(list(Presentation(HOME / P["deck"]).slides))
        return loaded[0]

    def squash(text):
        """Compare PDF text without layout: NFKC (ligatures), no whitespace, casefolded."""
        return "".join(unicodedata.normalize("NFKC", norm(text)).split()).casefold()

    def text_of(shapes):
        return norm(" ".join(s.text_frame.text for s in shapes))

    def lines_of(shapes):
        return [norm(p.text) for s in shapes for p in s.text_frame.paragraphs if norm(p.text)]

    @precondition("the outline file is still there")
    def outline_kept():
        return "## " in (HOME / P["outline"]).read_text(encoding="utf-8")

    @component("the deck has one title slide plus one slide per outline section", 0.15)
    def slide_count():
        return len(deck_slides()) == len(sections) + 1

    @component("slide 1 is a title slide with the deck title and the subtitle", 0.2)
    def title_slide():
        title = text_of(placeholders_of(deck_slides()[0], ["TITLE", "CENTER_TITLE"]))
        subtitle = text_of(placeholders_of(deck_slides()[0], ["SUBTITLE"]))
        return title.casefold() == norm(P["title"]).casefold() and subtitle.casefold() == norm(P["subtitle"]).casefold()

    @component("section slides carry the section headings as titles, in outline order", 0.15)
    def section_titles():
        found = [text_of(placeholders_of(s, ["TITLE", "CENTER_TITLE"])).casefold() for s in deck_slides()[1:]]
        return sum(i < len(found) and found[i] == norm(h).casefold() for i, (h, _) in enumerate(sections)) / len(sections)

    @component("each section slide lists its bullets in a content placeholder", 0.25)
    def section_bullets():
        def matches(i, bullets):
            if i + 1 >= len(deck_slides()):
                return False
            got = [line.casefold() for line in lines_of(placeholders_of(deck_slides()[i + 1], ["BODY", "OBJECT"]))]
            return got == [norm(b).casefold() for b in bullets]

        return sum(matches(i, bullets) for i, (_, bullets) in enumerate(sections)) / len(sections)

    @component("the PDF export has one page per slide, each showing its slide's title", 0.25)
    def pdf_export():
        pages = PdfReader(HOME / P["pdf"]).pages
        titles = [P["title"]] + [h for h, _ in sections]
        if len(pages) != len(titles):
            return 0.0
        return sum(squash(t) in squash(page.extract_text()) for t, page in zip(titles, pages, strict=True)) / len(titles)


class OutlineDeck(Family):
    id = "impress.outline_deck"
    apps = ("impress",)
    difficulty = Difficulty.HARD
    leaves = ("impress/slides/layout/title_slide_layout", "impress/slides/layout/title_content_layout",
              "impress/text/placeholders/body_bullets", "impress/slides/manage/new_slide",
              "impress/document/files/export_pdf")  # fmt: skip
    domains = (Domain.MANAGEMENT, Domain.COMMUNITY_SOCIAL, Domain.SCIENCE, Domain.COMPUTER_MATH, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL, Scenario.SCIENTIFIC, Scenario.EDUCATIONAL)
    helpers = (norm, placeholders_of, write_pdf, _build)
    templates = {
        Wording.IMPERATIVE: "Create the presentation {deck} from the outline in {outline}: slide 1 uses the "
        "Title Slide layout with the deck title and subtitle, then one slide with the Title, Content layout "
        "per \"##\" section ({n} sections), titled with the section heading and listing its \"-\" lines as "
        "bullets, in outline order. Save it as .pptx, then export the finished deck to {pdf}.",
        Wording.REQUEST: "Could you turn my outline {outline} into slides? I need {deck} with a title slide "
        "(title and subtitle from the outline) followed by {n} Title, Content slides, one per \"##\" "
        "heading with its bullet points, in the same order. When it is done, please also export it as "
        "PDF to {pdf}.",
        Wording.CONTEXTUAL: "As {persona}, I wrote the talk as an outline in {outline} and must send both "
        "the slides and a PDF. Build {deck}: a Title Slide with the outline's title and subtitle, then a "
        "Title, Content slide for each of the {n} \"##\" sections (heading as title, \"-\" lines as "
        "bullets, same order). Save it, and export the complete deck to {pdf}.",
        Wording.GOAL: "Goal: {deck} exists with exactly {slides} slides: a Title Slide (the title and "
        "subtitle from {outline}) and, in outline order, one Title, Content slide per \"##\" section "
        "whose bullets are that section's \"-\" lines; and {pdf} is a PDF export of that finished deck, "
        "one page per slide.",
        Wording.PROBLEM_FIX: "The talk in {outline} only exists as a text outline, so there is nothing to "
        "present or send. Fix that: create {deck} (title slide with title and subtitle, then one Title, "
        "Content slide per \"##\" section with its bullets, {n} in total, in order) and export the "
        "finished presentation to {pdf}.",
    }

    def draw(self, rng: random.Random) -> dict:
        topic = rng.choice(sorted(TOPICS))
        chosen = sorted(rng.sample(range(len(TOPICS[topic])), rng.randint(3, 5)))
        sections = [[h, rng.sample(b, len(b))] for h, b in (TOPICS[topic][i] for i in chosen)]
        year = rng.randint(2024, 2027)
        slug = f"{topic.lower().replace(' ', '_')}_{year}"
        return {
            "title": f"{topic} {year}",
            "subtitle": rng.choice(["Proposal for the steering group", "Briefing for new members",
                                    "Draft for discussion", "Update for the committee"]),  # fmt: skip
            "sections": sections,
            "outline": f"Documents/{slug}_outline.txt",
            "deck": f"Desktop/{slug}.pptx",
            "pdf": f"Desktop/{slug}.pdf",
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"deck": "~/" + P["deck"], "pdf": "~/" + P["pdf"], "outline": "~/" + P["outline"],
                "n": str(len(P["sections"])), "slides": str(len(P["sections"]) + 1)}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['outline']} (UTF-8 text) holds 'Deck title: {P['title']}', 'Subtitle: {P['subtitle']}' and "
            f"sections as '## heading' + '- bullet' lines: {P['sections']}. ~/{P['deck']} and ~/{P['pdf']} do "
            f"not exist. Expected: a {len(P['sections']) + 1}-slide deck (slide 1 title+subTitle placeholders, "
            f"then title + body/content placeholder per section, bullets verbatim and in order) and a PDF "
            f"with one page per slide whose text contains that slide's title."
        )
