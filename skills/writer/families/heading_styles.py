"""Writer: a report typed with bold body text as "headings"; give it real Heading 1/2 styles.

Section titles ("2. Methods") must get Heading 1 and subsection titles ("2.1 Sampling") Heading 2, so
the navigator and a table of contents work. Body paragraphs must stay body text.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

REPORTS = {
    "water quality survey": {
        "Background": ["Study area", "Previous surveys"],
        "Methods": ["Sampling", "Laboratory analysis", "Quality control"],
        "Results": ["Nitrate levels", "Turbidity"],
        "Discussion": ["Limitations"],
        "Recommendations": [],
    },
    "customer onboarding review": {
        "Overview": ["Scope"],
        "Current process": ["Sign-up", "Identity checks", "First purchase"],
        "Findings": ["Drop-off points", "Support tickets"],
        "Proposed changes": ["Quick wins", "Longer-term work"],
        "Next steps": [],
    },
    "warehouse safety audit": {
        "Introduction": ["Audit team"],
        "Inspection": ["Loading bays", "Racking", "Fire exits"],
        "Incidents": ["Near misses"],
        "Corrective actions": ["Training", "Signage"],
        "Sign-off": [],
    },
    "course evaluation": {
        "Summary": [],
        "Course design": ["Learning outcomes", "Assessment"],
        "Student feedback": ["Survey results", "Focus groups"],
        "Teaching staff": ["Workload"],
        "Changes for next year": ["Reading list", "Lab sessions"],
    },
    "network upgrade plan": {
        "Purpose": [],
        "Current state": ["Core switches", "Wireless coverage"],
        "Design": ["Topology", "Addressing", "Security zones"],
        "Migration": ["Cut-over weekend", "Rollback"],
        "Costs": ["Hardware", "Licences"],
    },
}
FILLER = [
    "This part summarises what the team observed during the review period.",
    "Figures are rounded to the nearest whole unit unless stated otherwise.",
    "The details below were agreed with the stakeholders listed in the appendix.",
    "Where data was incomplete, the most recent complete month was used instead.",
    "Further detail is available on request from the report owner.",
    "These points were discussed at the last quarterly meeting.",
    "The same approach will be repeated next year to allow comparison.",
]


def style_key(paragraph):
    """Style name folded so "Heading 1" (LibreOffice) and "heading 1" (Word) compare equal."""
    name = paragraph.style.name if paragraph.style is not None else ""
    return "".join(str(name).split()).lower()


def _apply_heading_styles(P, subsection_style):
    import docx

    path = HOME / P["path"]
    doc = docx.Document(path)
    sections = set(P["sections"])
    subsections = set(P["subsections"])
    for paragraph in doc.paragraphs:
        text = " ".join(paragraph.text.split())
        if text in sections:
            paragraph.style = doc.styles["Heading 1"]
        elif text in subsections:
            paragraph.style = doc.styles[subsection_style]
        else:
            continue
        for run in paragraph.runs:
            run.bold = None  # let the heading style decide, as "Clear direct formatting" would
    doc.save(path)


def initial_setup(P):
    import docx

    doc = docx.Document()
    doc.core_properties.author = P["author"]
    doc.add_paragraph(P["title"], style="Title")
    for kind, text in P["blocks"]:
        paragraph = doc.add_paragraph()
        run = paragraph.add_run(text)
        run.bold = kind != "body"  # fake headings: bold Normal text, which is what needs fixing
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def golden_patch(P):
    _apply_heading_styles(P, "Heading 2")


def near_miss(P):
    # Sections right, but subsections one level too deep (Heading 3).
    _apply_heading_styles(P, "Heading 3")


def reward(P):
    import docx

    body = set(text for kind, text in P["blocks"] if kind == "body")
    cache = {}

    def styles_of():
        """Paragraph text -> folded style names of the paragraphs with that text, read once."""
        if not cache:
            for paragraph in docx.Document(HOME / P["path"]).paragraphs:
                cache.setdefault(" ".join(paragraph.text.split()), []).append(style_key(paragraph))
        return cache

    def no_body_heading():
        """Body text must not be turned into headings (select-all + Heading 1 earns nothing)."""
        return not any(key.startswith("heading") for text in body for key in styles_of().get(text, []))

    def share(titles, wanted):
        return sum(styles_of().get(t) == [wanted] for t in titles) / len(titles)

    @precondition("every title and body paragraph of the report is still present")
    def text_intact():
        return all(text in styles_of() for kind, text in P["blocks"])

    @component("section titles use Heading 1 (and no body text is a heading)", 0.5)
    def sections_h1():
        return share(P["sections"], "heading1") if no_body_heading() else 0.0

    @component("subsection titles use Heading 2 (and no body text is a heading)", 0.5)
    def subsections_h2():
        return share(P["subsections"], "heading2") if no_body_heading() else 0.0


class HeadingStyles(Family):
    id = "writer.heading_styles"
    apps = ("writer",)
    difficulty = Difficulty.MEDIUM
    leaves = ("writer/formatting/styles/apply_heading",)
    domains = (Domain.SCIENCE, Domain.MANAGEMENT, Domain.EDUCATION, Domain.COMPUTER_MATH, Domain.PROTECTIVE)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC, Scenario.EDUCATIONAL)
    helpers = (style_key, _apply_heading_styles)
    templates = {
        Wording.IMPERATIVE: "In {file}, apply the Heading 1 paragraph style to every numbered section "
        "title (such as \"{example_section}\") and Heading 2 to every numbered subsection title (such "
        "as \"{example_sub}\"). Leave the body paragraphs as they are and save as .docx.",
        Wording.REQUEST: "The {topic} in {file} has its section titles typed as bold plain text. Could you "
        "give the {n_sections} section titles (like \"{example_section}\") the Heading 1 style and the "
        "{n_subs} subsection titles (like \"{example_sub}\") Heading 2? Body text stays body text; keep "
        "the file as .docx.",
        Wording.CONTEXTUAL: "As {persona}, I need a table of contents for {file}, but its titles are only "
        "bold text. Style the top-level numbered titles (e.g. \"{example_section}\") as Heading 1 and the "
        "second-level ones (e.g. \"{example_sub}\") as Heading 2, without touching normal paragraphs, "
        "and save it as .docx.",
        Wording.GOAL: "Goal: in {file}, each of the {n_sections} numbered section titles (pattern "
        "\"{example_section}\") uses Heading 1, each of the {n_subs} subsection titles (pattern "
        "\"{example_sub}\") uses Heading 2, and no body paragraph is a heading. Saved as .docx.",
        Wording.PROBLEM_FIX: "The Navigator shows no headings for {file} because its section titles are "
        "just bold text. Fix it: numbered section titles such as \"{example_section}\" need Heading 1, "
        "subsection titles such as \"{example_sub}\" need Heading 2; the other paragraphs stay as they "
        "are. Save as .docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        topic = rng.choice(sorted(REPORTS))
        outline = REPORTS[topic]
        names = list(outline)
        subsections = []
        while len(subsections) < 2:  # both levels, and more than one title of each (medium, not easy)
            keep = sorted(rng.sample(range(len(names)), rng.randint(3, len(names))))
            blocks, sections, subsections = [], [], []
            for number, index in enumerate(keep, start=1):
                name = names[index]
                sections.append(f"{number}. {name}")
                blocks.append(["section", sections[-1]])
                blocks.append(["body", rng.choice(FILLER)])
                for sub_number, sub in enumerate(outline[name][: rng.randint(0, len(outline[name]))], start=1):
                    subsections.append(f"{number}.{sub_number} {sub}")
                    blocks.append(["subsection", subsections[-1]])
                    blocks.append(["body", rng.choice(FILLER)])
        year = rng.randint(2019, 2026)
        slug = topic.replace(" ", "_")
        return {
            "topic": topic,
            "title": f"{topic.title()} {year}",
            "path": f"Documents/{slug}_{year}.docx",
            "blocks": blocks,
            "sections": sections,
            "subsections": subsections,
            "author": rng.choice(["R. Alvarez", "K. Mensah", "J. Lindqvist", "A. Haddad", "M. Kowalski"]),
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "topic": P["topic"], "example_section": P["sections"][1],
                "example_sub": P["subsections"][0], "n_sections": str(len(P["sections"])),
                "n_subs": str(len(P["subsections"]))}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']}: Title paragraph {P['title']!r}, then paragraphs in Normal style where section "
            f"and subsection titles are bold direct formatting. Sections: {P['sections']}; subsections: "
            f"{P['subsections']}. Expected: sections styled Heading 1, subsections Heading 2 (LibreOffice "
            f"saves the name 'Heading 1', Word 'heading 1': both accepted), body paragraphs not headings."
        )
