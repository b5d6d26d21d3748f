"""Writer: give a report's bold fake headings real Heading 1/2 styles. Data and wording: heading_styles.yaml.

Section titles ("2. Methods") must get Heading 1 and subsection titles ("2.1 Sampling") Heading 2, so
the navigator and a table of contents work. Body paragraphs must stay body text.
"""

from skills.kit.guest.docs import new_doc, open_doc, save_doc, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    topic = rng.choice(sorted(pools["reports"]))
    outline = pools["reports"][topic]
    names = list(outline)
    subsections = []
    while len(subsections) < 2:  # both levels, and more than one title of each (medium, not easy)
        keep = sorted(rng.sample(range(len(names)), rng.randint(3, len(names))))
        blocks, sections, subsections = [], [], []
        for number, index in enumerate(keep, start=1):
            name = names[index]
            sections.append(f"{number}. {name}")
            blocks += [["section", sections[-1]], ["body", rng.choice(pools["filler"])]]
            for sub_number, sub in enumerate(outline[name][: rng.randint(0, len(outline[name]))], start=1):
                subsections.append(f"{number}.{sub_number} {sub}")
                blocks += [["subsection", subsections[-1]], ["body", rng.choice(pools["filler"])]]
    year = rng.randint(2019, 2026)
    return {
        "topic": topic,
        "title": f"{topic.title()} {year}",
        "path": f"Documents/{topic.replace(' ', '_')}_{year}.docx",
        "blocks": blocks,
        "sections": sections,
        "subsections": subsections,
        "author": rng.choice(["R. Alvarez", "K. Mensah", "J. Lindqvist", "A. Haddad", "M. Kowalski"]),
    }


def style_key(paragraph):
    """Style name folded so "Heading 1" (LibreOffice) and "heading 1" (Word) compare equal."""
    name = paragraph.style.name if paragraph.style is not None else ""
    return "".join(str(name).split()).lower()


def initial_setup(P):
    doc = new_doc(P["author"])
    doc.add_paragraph(P["title"], style="Title")
    for kind, text in P["blocks"]:
        doc.add_paragraph().add_run(text).bold = kind != "body"  # fake headings: bold Normal text
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    doc = open_doc(P["path"])
    styles = {t: "Heading 1" for t in P["sections"]}
    styles.update({t: "Heading 3" if mistake == "subsections_h3" else "Heading 2" for t in P["subsections"]})
    for paragraph in doc.paragraphs:
        style = styles.get(" ".join(paragraph.text.split()))
        if style:
            paragraph.style = doc.styles[style]  # the direct bold stays: the task asks for styles only
    save_doc(doc, P["path"])


def reward(P):
    from functools import cache

    body = set(text for kind, text in P["blocks"] if kind == "body")

    @cache
    def styles_of():
        """Paragraph text -> folded style names of the paragraphs with that text."""
        found = {}
        for paragraph in open_doc(P["path"]).paragraphs:
            found.setdefault(" ".join(paragraph.text.split()), []).append(style_key(paragraph))
        return found

    def no_body_heading():
        """Body text must not be turned into headings (select-all + Heading 1 earns nothing)."""
        return not any(key.startswith("heading") for text in body for key in styles_of().get(text, []))

    def share(titles, wanted):
        return sum(styles_of().get(t) == [wanted] for t in titles) / len(titles) if no_body_heading() else 0.0

    @precondition("every title and body paragraph of the report is still present, as often as before")
    def text_intact():
        return texts_kept(open_doc(P["path"]), [P["title"], *(text for kind, text in P["blocks"])])

    @component("section titles use Heading 1 (and no body text is a heading)", 0.5)
    def sections_h1():
        return share(P["sections"], "heading1")

    @component("subsection titles use Heading 2 (and no body text is a heading)", 0.5)
    def subsections_h2():
        return share(P["subsections"], "heading2")


def demonstrate(P, screen):
    """Writer is open on the report (the title first, then the blocks in order): walk the paragraphs
    with Ctrl+Down and give each title its style, Ctrl+1 (Heading 1) or Ctrl+2 (Heading 2); save as docx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    shortcut = {"section": [key("ctrl", "1")], "subsection": [key("ctrl", "2")], "body": []}
    steps = [[key("ctrl", "down"), *shortcut[kind]] for kind, _ in P["blocks"]]  # Ctrl+Down: next paragraph
    yield [key("ctrl", "home")]
    for start in range(0, len(steps), 4):  # a few paragraphs per step
        yield [call for step in steps[start : start + 4] for call in step]
    yield from save_keeping_format(screen)
