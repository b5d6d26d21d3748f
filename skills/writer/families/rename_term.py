"""Writer: a project was renamed; replace its name throughout a memo, whole words only.

The memo mentions the old name in body paragraphs and in a table, and also mentions a place whose
name merely *contains* the old name (e.g. "Falconridge"). A plain Replace All without "Whole words
only" rewrites that place too: the classic Find & Replace slip this family's near miss makes.
"""

from __future__ import annotations

import random

from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# (old name, new name, a place whose name contains the old one)
RENAMES = [
    ("Falcon", "Osprey", "Falconridge"), ("Harbor", "Quayside", "Harborview"),
    ("Cedar", "Juniper", "Cedarbrook"), ("Summit", "Pinnacle", "Summitville"),
    ("Beacon", "Lantern", "Beaconsfield"), ("Maple", "Birch", "Mapleton"),
    ("Granite", "Basalt", "Graniteford"), ("Aurora", "Zenith", "Auroraville"),
    ("Willow", "Alder", "Willowbank"), ("Orchid", "Lotus", "Orchidhill"),
]  # fmt: skip
TERM_SENTENCES = [
    "The {T} team will deliver the first milestone by {month}.",
    "The budget for {T} is capped at {amount} for this financial year.",
    "All {T} status reports go to {person} every Friday.",
    "Questions about {T} should be raised at the weekly steering call.",
    "{T} replaces the legacy tooling that has been in use since {year}.",
    "Vendors supporting {T} must sign the updated data agreement.",
    "Training for {T} users starts in {month} and runs for three weeks.",
]
PLACE_SENTENCES = [
    "The kickoff workshop takes place at the {D} office.",
    "Travel to the {D} site is reimbursed at the standard rate.",
    "Hardware is stored in the {D} depot until installation.",
]
NEUTRAL_SENTENCES = [
    "Minutes are circulated within two working days of each meeting.",
    "Risks are reviewed at every steering meeting and logged centrally.",
    "Please keep attachments under ten megabytes.",
    "Holiday cover must be agreed with the line manager in advance.",
]
MONTHS = ["January", "March", "April", "June", "September", "October", "November"]
PEOPLE = ["Priya Nair", "Tom Becker", "Lucia Ferraro", "Samuel Osei", "Mei Tanaka", "Jonas Berg"]
DOC_KINDS = ["status_memo", "kickoff_notes", "project_brief", "rollout_plan"]


def norm(text):
    """Whitespace collapsed; typographic dashes and quotes folded (LibreOffice AutoCorrect)."""
    text = str(text or "")
    for fancy, plain in (("\u2013", "-"), ("\u2014", "-"), ("\u2018", "'"), ("\u2019", "'"),
                         ("\u201c", '"'), ("\u201d", '"'), ("\u00a0", " ")):  # fmt: skip
        text = text.replace(fancy, plain)
    return " ".join(text.split())


def whole_word(term):
    import re

    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(term) + r"(?![A-Za-z0-9])")


def initial_setup(P):
    import docx

    doc = docx.Document()
    doc.core_properties.author = P["author"]
    doc.add_paragraph(P["title"], style="Title")
    for text in P["paragraphs"]:
        doc.add_paragraph(text)
    table = doc.add_table(rows=0, cols=2)
    table.style = "Table Grid"
    for left, right in P["table"]:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = left, right
    doc.add_paragraph(P["closing"])
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


def _rewrite_everywhere(P, replace):
    import docx

    path = HOME / P["path"]
    doc = docx.Document(path)
    paragraphs = list(doc.paragraphs)
    for table in doc.tables:
        for row in table.rows:
            for cell in row.cells:
                paragraphs.extend(cell.paragraphs)
    for paragraph in paragraphs:
        for run in paragraph.runs:  # the setup never splits a name across runs
            run.text = replace(run.text)
    doc.save(path)


def golden_patch(P):
    pattern = whole_word(P["old"])
    _rewrite_everywhere(P, lambda text: pattern.sub(P["new"], text))


def near_miss(P):
    # Replace All without "Whole words only": the place name containing the old name is mangled too.
    _rewrite_everywhere(P, lambda text: text.replace(P["old"], P["new"]))


def reward(P):
    import docx

    pattern = whole_word(P["old"])
    cache = {}

    def texts():
        """(paragraph texts, table cell texts) of the saved memo, read once inside a component."""
        if not cache:
            doc = docx.Document(HOME / P["path"])
            cache["body"] = [norm(p.text) for p in doc.paragraphs]
            cache["cells"] = [norm(c.text) for table in doc.tables for row in table.rows for c in row.cells]
        return cache["body"], cache["cells"]

    def expected(text):
        return norm(pattern.sub(P["new"], text))

    @precondition("the memo's untouched paragraphs are still there")
    def neutral_intact():
        return all(norm(text) in texts()[0] for text in P["neutral"])

    @component("every paragraph naming the project now uses the new name", 0.45)
    def paragraphs_renamed():
        targets = [t for t in [P["title"], *P["paragraphs"]] if pattern.search(t)]
        return sum(expected(t) in texts()[0] for t in targets) / len(targets)

    @component("table cells naming the project now use the new name", 0.25)
    def cells_renamed():
        targets = [t for row in P["table"] for t in row if pattern.search(t)]
        return sum(expected(t) in texts()[1] for t in targets) / len(targets)

    @component("whole words only: every old name became the new one, place names untouched", 0.30)
    def whole_words_only():
        body, cells = texts()
        originals = [P["title"], *P["paragraphs"], *(c for row in P["table"] for c in row)]
        renamed = sum(len(whole_word(P["new"]).findall(t)) for t in body + cells)
        all_renamed = renamed >= sum(len(pattern.findall(t)) for t in originals)  # deleting is not renaming
        leftover = any(pattern.search(text) for text in body + cells)
        places_kept = all(norm(t) in body + cells for t in originals if P["place"] in t)
        return all_renamed and not leftover and places_kept


class RenameTerm(Family):
    id = "writer.rename_term"
    apps = ("writer",)
    difficulty = Difficulty.EASY
    leaves = ("writer/editing/find_replace/whole_words", "writer/editing/find_replace/replace_all")
    domains = (Domain.MANAGEMENT, Domain.OFFICE_ADMIN, Domain.COMPUTER_MATH, Domain.ENGINEERING)
    scenarios = (Scenario.COMMERCIAL, Scenario.SCIENTIFIC)
    helpers = (norm, whole_word, _rewrite_everywhere)
    templates = {
        Wording.IMPERATIVE: "Project {old} has been renamed {new}. In {file}, replace every mention of "
        "{old} with {new}, in the text and in the table, but leave words that only contain it, such as "
        "the place name {place}, unchanged. Save the document as .docx in place.",
        Wording.REQUEST: "Could you update {file} for the project's new name? Every \"{old}\" should read "
        "\"{new}\" (body text and table alike); \"{place}\" is a different place and must stay as it is. "
        "Please keep it a .docx file.",
        Wording.CONTEXTUAL: "As {persona}, I circulate {file} to the whole team. Since the project {old} "
        "is now called {new}, the memo must use {new} everywhere, including the table, while the "
        "{place} site keeps its own name. Save it as .docx.",
        Wording.GOAL: "Goal: {file} mentions the project only as {new} (no standalone {old} anywhere, "
        "tables included), and {place} still reads {place}. Keep the .docx format.",
        Wording.PROBLEM_FIX: "Readers of {file} are confused because it still calls the project {old}, "
        "its old name; the new name is {new}. Fix every mention in the text and table without changing "
        "the place name {place}, and save the .docx.",
    }

    def draw(self, rng: random.Random) -> dict:
        old, new, place = rng.choice(RENAMES)
        fill = {"T": old, "D": place, "month": rng.choice(MONTHS), "person": rng.choice(PEOPLE),
                "amount": f"${rng.randint(12, 95) * 1000:,}", "year": str(rng.randint(2009, 2021))}  # fmt: skip
        term = [s.format(**fill) for s in rng.sample(TERM_SENTENCES, rng.randint(3, 5))]
        places = [s.format(**fill) for s in rng.sample(PLACE_SENTENCES, rng.randint(1, 2))]
        neutral = rng.sample(NEUTRAL_SENTENCES, 2)
        paragraphs = term + places + neutral
        rng.shuffle(paragraphs)
        owners = rng.sample(PEOPLE, 3)
        table = [["Workstream", "Owner"], [f"{old} roadmap", owners[0]], [f"{old} training", owners[1]],
                 [f"{place} lease", owners[2]]]  # fmt: skip
        kind = rng.choice(DOC_KINDS)
        return {
            "old": old, "new": new, "place": place,
            "path": f"Documents/{old.lower()}_{kind}_{rng.randint(10, 99)}.docx",
            "title": f"Project {old}: {kind.replace('_', ' ').title()}",
            "paragraphs": paragraphs,
            "neutral": neutral,
            "table": table,
            "closing": f"Prepared by {fill['person']}.",
            "author": rng.choice(PEOPLE),
        }  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "old": P["old"], "new": P["new"], "place": P["place"]}

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']} is a memo titled {P['title']!r} with {len(P['paragraphs'])} body paragraphs "
            f"{P['paragraphs']}, a 2-column table {P['table']} and the closing line {P['closing']!r}. "
            f"Expected: every whole-word {P['old']!r} becomes {P['new']!r} in paragraphs and table cells; "
            f"{P['place']!r} and all other text unchanged; file stays .docx."
        )
