"""Impress: add speaker notes to two named slides of a training deck (Notes view)."""

from __future__ import annotations

import random

from skills.impress.families._deckkit import norm, slide_title
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# topic -> (title slide subtitle, [(slide title, bullets, a note a presenter would write)])
DECKS = {
    "Volunteer onboarding": ("Community food bank", [
        ("Who we are", ["Founded by local residents", "Open five days a week"], "Tell the story of the first winter we opened."),
        ("Your first shift", ["Sign in at the front desk", "Collect an apron and badge"], "Show where the sign-in sheet is kept."),
        ("Food safety", ["Check use-by dates", "Keep chilled food below 5 C"], "Ask who already holds a hygiene certificate."),
        ("Working with guests", ["Be discreet and friendly", "Never ask for proof of need"], "Share the example from last month's survey."),
        ("Contacts", ["Shift lead on duty", "Coordinator: Mon to Fri"], "Hand out the contact cards now."),
    ]),
    "Data privacy basics": ("Annual staff refresher", [
        ("Why privacy matters", ["Trust of our customers", "Legal duties"], "Mention the fine another firm received this year."),
        ("Personal data", ["Names, emails, IDs", "Anything that identifies a person"], "Ask the room for two examples from their own work."),
        ("Sharing safely", ["Use the secure portal", "No personal data in chat"], "Demo the portal upload for one minute."),
        ("Reporting a breach", ["Tell the privacy team within 24 hours", "Do not try to fix it alone"], "Stress that reporting early is never punished."),
        ("Retention", ["Keep only what we need", "Delete on schedule"], "Point to the retention table on the intranet."),
    ]),
    "Soil science week 3": ("Introduction to soils", [
        ("Soil texture", ["Sand, silt and clay", "The texture triangle"], "Pass the three sample jars around."),
        ("Organic matter", ["Humus and residues", "Effect on water holding"], "Remind them the lab report is due Friday."),
        ("Soil pH", ["Acid and alkaline soils", "Liming"], "Do the red cabbage indicator demo here."),
        ("Nutrients", ["Nitrogen, phosphorus, potassium", "Deficiency symptoms"], "Link back to last week's plant growth data."),
        ("Field work", ["Augers and core samples", "Safety on site"], "Collect the field trip consent forms."),
    ]),
    "Kitchen hygiene training": ("New starters, evening shift", [
        ("Hand washing", ["Twenty seconds with soap", "Before and after handling raw food"], "Demonstrate at the sink by the pass."),
        ("Cross contamination", ["Colour-coded boards", "Separate storage"], "Show the red and green boards."),
        ("Allergens", ["Fourteen major allergens", "Check the allergen matrix"], "Ask everyone to find the matrix on the wall."),
        ("Cleaning schedule", ["Daily and weekly tasks", "Sign the checklist"], "Explain who checks the sheet at close."),
        ("Temperature checks", ["Fridges twice a day", "Hot holding above 63 C"], "Hand each person a probe thermometer."),
    ]),
    "Quarterly sales kickoff": ("Regional team meeting", [
        ("Last quarter", ["Revenue up on plan", "Two key wins"], "Thank the northern team for the hospital deal."),
        ("New pricing", ["Simpler bundles", "Effective from the first of the month"], "Warn that old quotes expire in thirty days."),
        ("Target accounts", ["Twenty named accounts", "Owner per account"], "Ask each rep to confirm their three top accounts."),
        ("Tools", ["CRM clean-up", "New proposal template"], "Show where the new template lives."),
        ("Incentives", ["Quarterly bonus pool", "Team prize for best pipeline"], "Keep the prize a surprise until the end."),
    ]),
}  # fmt: skip






def _write_notes(P, placements):
    from pptx import Presentation

    path = HOME / P["path"]
    prs = Presentation(path)
    slides = list(prs.slides)
    titles = [slide_title(s) for s in slides]
    for title, note, shift in placements:
        slide = slides[titles.index(title) + shift]
        slide.notes_slide.notes_text_frame.text = note
    prs.save(path)


def initial_setup(P):
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)  # 16:9, as LibreOffice defaults
    first = prs.slides.add_slide(prs.slide_layouts[0])
    first.shapes.title.text = P["deck"]
    first.placeholders[1].text = P["subtitle"]
    first.notes_slide.notes_text_frame.text = P["opening_note"]
    for title, bullets in P["slides"]:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for line in bullets[1:]:
            body.add_paragraph().text = line
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)


def golden_patch(P):
    _write_notes(P, [(t["title"], t["note"], 0) for t in P["targets"]])


def near_miss(P):
    # The second note lands on the slide after the one it belongs to.
    first, second = P["targets"]
    _write_notes(P, [(first["title"], first["note"], 0), (second["title"], second["note"], 1)])


def reward(P):
    from pptx import Presentation

    by_title = {}

    def slides_titled(title):
        """Slides of the saved deck whose title is `title` (the deck is read once, inside a component)."""
        if not by_title:
            for slide in Presentation(HOME / P["path"]).slides:
                by_title.setdefault(slide_title(slide), []).append(slide)
        return by_title.get(norm(title), [])

    def notes_of(title):
        slides = slides_titled(title)
        if len(slides) != 1 or not slides[0].has_notes_slide:  # notes slides exist only once written
            return ""
        frame = slides[0].notes_slide.notes_text_frame
        return norm(frame.text if frame is not None else "")

    def same(a, b):
        return norm(a).casefold().rstrip(".") == norm(b).casefold().rstrip(".")

    @precondition("the deck still has its slides, each title once")
    def slides_intact():
        return all(len(slides_titled(t)) == 1 for t, _ in P["slides"])

    first, second = P["targets"]

    @component(f"slide \"{first['title']}\" has the requested speaker note", 0.5)
    def first_note():
        return same(notes_of(first["title"]), first["note"])

    @component(f"slide \"{second['title']}\" has the requested speaker note", 0.5)
    def second_note():
        return same(notes_of(second["title"]), second["note"])


class SpeakerNotes(Family):
    id = "impress.speaker_notes"
    apps = ("impress",)
    difficulty = Difficulty.EASY
    leaves = ("impress/notes/speaker_notes/add_notes",)
    domains = (Domain.EDUCATION, Domain.COMMUNITY_SOCIAL, Domain.FOOD_SERVICE, Domain.SALES, Domain.LEGAL)
    scenarios = (Scenario.EDUCATIONAL, Scenario.COMMERCIAL, Scenario.PERSONAL)
    helpers = (norm, slide_title, _write_notes)
    templates = {
        Wording.IMPERATIVE: "In {file}, add the speaker note \"{note1}\" to the slide titled \"{title1}\" "
        "and the note \"{note2}\" to the slide titled \"{title2}\". Save the presentation as .pptx.",
        Wording.REQUEST: "Could you put my presenter notes into {file}? On \"{title1}\" I want \"{note1}\", "
        "and on \"{title2}\" I want \"{note2}\". Please keep it a .pptx file.",
        Wording.CONTEXTUAL: "As {persona}, I present {file} tomorrow and need reminders in the notes. "
        "The slide \"{title1}\" should carry the note \"{note1}\"; the slide \"{title2}\" the note "
        "\"{note2}\". Save it in .pptx format.",
        Wording.GOAL: "Goal: in {file}, the speaker notes of \"{title1}\" read \"{note1}\" and those of "
        "\"{title2}\" read \"{note2}\"; the file is saved as .pptx.",
        Wording.PROBLEM_FIX: "I keep forgetting points while presenting {file}. Fix that by adding speaker "
        "notes: \"{note1}\" on the slide \"{title1}\" and \"{note2}\" on the slide \"{title2}\". Save as .pptx.",
    }

    def draw(self, rng: random.Random) -> dict:
        deck = rng.choice(sorted(DECKS))
        subtitle, slides = DECKS[deck]
        chosen = sorted(rng.sample(range(len(slides)), rng.randint(4, len(slides))))
        picked = [slides[i] for i in chosen]
        first, second = sorted(rng.sample(range(len(picked) - 1), 2))  # never the last: the near miss shifts
        return {
            "deck": deck,
            "subtitle": subtitle,
            "path": f"Desktop/{deck.lower().replace(' ', '_')}_{rng.randint(1, 30):02d}.pptx",
            "slides": [[title, bullets] for title, bullets, _ in picked],
            "opening_note": "Welcome everyone and introduce yourself.",
            "targets": [{"title": picked[i][0], "note": picked[i][2]} for i in (first, second)],
        }

    def words(self, P: dict) -> dict[str, str]:
        (a, b) = P["targets"]
        return {"file": "~/" + P["path"], "title1": a["title"], "note1": a["note"].rstrip("."),
                "title2": b["title"], "note2": b["note"].rstrip(".")}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']}: title slide {P['deck']!r} / {P['subtitle']!r} (note {P['opening_note']!r}), then "
            f"Title-and-Content slides {[t for t, _ in P['slides']]} without notes. Expected: notes of "
            + "; ".join(f"{t['title']!r} == {t['note']!r}" for t in P["targets"])
            + " (whitespace, quotes and a final full stop normalised)."
        )
