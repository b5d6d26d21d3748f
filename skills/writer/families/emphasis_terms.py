"""Writer: in an office memo, bold the deadline and italicise the title of the cited policy document.

Formatting is checked per character (runs split arbitrarily), with inheritance from character and
paragraph styles resolved, so Ctrl+B and LibreOffice's "Strong Emphasis" style both count. Bolding or
italicising more than the phrase (a whole paragraph) earns nothing for that component.
"""

from __future__ import annotations

import datetime
import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

DEADLINE_SENTENCES = [
    "Please submit your timesheets {D} so that payroll can run on time.",
    "All receipts must reach the finance office {D}.",
    "Registration for the first-aid course closes {D}.",
    "Feedback on the draft rota is needed {D}.",
    "Laptops due for replacement must be returned to IT {D}.",
]
TITLE_SENTENCES = [
    "The rules are explained in the {T}, which is on the intranet.",
    "For the full procedure, see section 4 of the {T}.",
    "Nothing in this memo changes the {T} agreed last year.",
    "Questions not answered here are covered by the {T}.",
]
NEUTRAL = [
    "Thank you to everyone who helped with the office move.",
    "The kitchen on the second floor will be closed for cleaning on Monday.",
    "New starters should book their induction through the HR inbox.",
    "Visitors must be signed in at reception and wear a badge.",
]
DOCUMENTS = ["Travel Expenses Policy", "Staff Handbook", "Remote Working Guidelines", "Health and Safety Manual",
             "Data Retention Schedule", "Procurement Code"]  # fmt: skip


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


def _emphasise(P, italic_whole_paragraph):
    import docx

    path = HOME / P["path"]
    doc = docx.Document(path)
    for paragraph in doc.paragraphs:
        text = paragraph.text
        for phrase, attr in ((P["deadline"], "bold"), (P["document"], "italic")):
            if phrase not in text:
                continue
            for run in list(paragraph.runs):
                run._r.getparent().remove(run._r)
            before, after = text.split(phrase, 1)
            runs = [paragraph.add_run(before), paragraph.add_run(phrase), paragraph.add_run(after)]
            setattr(runs[1].font, attr, True)
            if attr == "italic" and italic_whole_paragraph:
                for run in runs:
                    run.italic = True
    doc.save(path)


def initial_setup(P):
    import docx

    doc = docx.Document()
    doc.core_properties.author = P["author"]
    doc.add_paragraph(P["heading"], style="Title")
    for text in P["paragraphs"]:
        doc.add_paragraph(text)
    doc.add_paragraph(P["signature"])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def golden_patch(P):
    _emphasise(P, italic_whole_paragraph=False)


def near_miss(P):
    # The deadline is bolded correctly, but the whole sentence citing the document went italic.
    _emphasise(P, italic_whole_paragraph=True)


def reward(P):
    import docx

    cache = []

    def body():
        """(text, flags) of the memo's body paragraphs (not the title), read once."""
        if not cache:
            paragraphs = docx.Document(HOME / P["path"]).paragraphs
            cache.extend(char_flags(p) for p in paragraphs if " ".join(p.text.split()) != P["heading"])
        return cache

    def emphasised_exactly(phrase, which):
        """Every letter of `phrase` has the flag; no letter elsewhere in the body has it."""
        inside = outside = 0
        for text, flags in body():
            start = text.find(phrase)
            span = range(start, start + len(phrase)) if start >= 0 else range(0)
            for i, ch in enumerate(text):
                if ch.isalnum() and flags[i][which]:
                    inside, outside = (inside + 1, outside) if i in span else (inside, outside + 1)
        letters = sum(ch.isalnum() for ch in phrase)
        return inside == letters and outside == 0

    @precondition("the memo's text is unchanged")
    def text_intact():
        texts = [" ".join(text.split()) for text, _ in body()]
        return all(" ".join(p.split()) in texts for p in P["paragraphs"])

    @component(f"the deadline \"{P['deadline']}\" (and nothing else) is bold", 0.5)
    def deadline_bold():
        return emphasised_exactly(P["deadline"], 0)

    @component(f"the title \"{P['document']}\" (and nothing else) is italic", 0.5)
    def title_italic():
        return emphasised_exactly(P["document"], 1)


class EmphasisTerms(Family):
    id = "writer.emphasis_terms"
    apps = ("writer",)
    difficulty = Difficulty.EASY
    leaves = ("writer/formatting/character/bold_italic",)
    domains = (Domain.OFFICE_ADMIN, Domain.BUSINESS_FINANCE, Domain.MANAGEMENT, Domain.EDUCATION)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (char_flags, _emphasise)
    templates = {
        Wording.IMPERATIVE: "In {file}, make the deadline \"{deadline}\" bold and the document title "
        "\"{document}\" italic. Format only those words, then save as .docx.",
        Wording.REQUEST: "Could you make two things stand out in the memo {file}? Put \"{deadline}\" in "
        "bold and \"{document}\" in italics, leaving the rest of the text as it is. Keep it a .docx.",
        Wording.CONTEXTUAL: "As {persona}, I am sending {file} to all staff and people keep missing the "
        "deadline. Bold the words \"{deadline}\" and italicise the cited title \"{document}\" (just "
        "those words), then save the .docx.",
        Wording.GOAL: "Goal: in {file}, exactly the words \"{deadline}\" are bold and exactly the words "
        "\"{document}\" are italic; no other text changes formatting. Saved as .docx.",
        Wording.PROBLEM_FIX: "In {file} the deadline \"{deadline}\" gets lost in the text and the title "
        "\"{document}\" is not set off as a title. Fix it by bolding the deadline and italicising the "
        "title, nothing more, and save the .docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        day = datetime.date(rng.randint(2025, 2027), rng.choice([1, 2, 3, 4, 5, 6, 9, 10, 11]), rng.randint(2, 28))
        while day.weekday() > 4:  # deadlines fall on working days
            day += datetime.timedelta(days=1)
        deadline = f"by {day:%A} {day.day} {day:%B}"
        document = rng.choice(DOCUMENTS)
        paragraphs = [rng.choice(DEADLINE_SENTENCES).format(D=deadline),
                      rng.choice(TITLE_SENTENCES).format(T=document), *rng.sample(NEUTRAL, rng.randint(1, 3))]  # fmt: skip
        rng.shuffle(paragraphs)
        topic = rng.choice(["office_update", "finance_reminder", "team_notice", "admin_memo"])
        return {
            "path": f"Documents/{topic}_{rng.randint(1, 52):02d}.docx",
            "heading": topic.replace("_", " ").title(),
            "deadline": deadline,
            "document": document,
            "paragraphs": paragraphs,
            "signature": rng.choice(["Office management", "Finance team", "HR team", "Facilities"]),
            "author": rng.choice(["T. Berg", "M. Osei", "L. Ferraro", "P. Nair"]),
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "deadline": P["deadline"], "document": P["document"]}

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']}: Title {P['heading']!r}, then plain Normal paragraphs {P['paragraphs']} and "
            f"{P['signature']!r}, no bold or italic anywhere in the body. Expected: every letter of "
            f"{P['deadline']!r} bold (direct or via a bold character style), every letter of "
            f"{P['document']!r} italic, no other body letter bold or italic; text unchanged."
        )
