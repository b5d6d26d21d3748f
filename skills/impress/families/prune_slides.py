"""Impress: clean a deck before it goes to a client by deleting the slides two rules pick out.

Rule 1 is visible in the slide pane (titles starting with "Backup:"); rule 2 is only visible in the
Notes view (speaker notes containing "CUT"). Every other slide must survive, in its order."""

from __future__ import annotations

import random

from skills.impress.families._deckkit import norm, slide_title
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

DECKS = {
    "Managed print services proposal": ["Your goals", "Current fleet", "Proposed devices", "Service levels",
                                        "Pricing", "Implementation plan", "Why us", "Case study: county council",
                                        "Contract terms"],
    "Solar installation quote": ["Site survey", "System design", "Expected yield", "Battery options",
                                 "Installation timeline", "Financing", "Warranty", "Maintenance",
                                 "Customer reviews"],
    "Office fit-out pitch": ["Brief recap", "Floor plan concept", "Meeting rooms", "Furniture range",
                             "Lighting and acoustics", "Programme", "Budget", "Sustainability", "Our team"],
    "Payroll outsourcing offer": ["Your requirements", "Service scope", "Onboarding", "Data security",
                                  "Reporting", "Pricing", "Service levels", "References", "Next steps"],
}  # fmt: skip
BACKUP_TOPICS = ["Detailed cost model", "Competitor comparison", "Internal margin analysis",
                 "Alternative supplier list", "Raw survey data", "Legacy pricing"]  # fmt: skip
KEEP_NOTES = ["Keep this short.", "Pause for questions here.", "Mention the site visit.", "Hand out the brochure."]
CUT_NOTES = ["CUT before sending: internal only.", "CUT - figures not yet approved.",
             "Draft, CUT for the client version."]  # fmt: skip






def _delete_slides(P, titles):
    """Remove the slides with these titles (python-pptx has no public delete: drop id and part link)."""
    from pptx import Presentation

    path = HOME / P["path"]
    prs = Presentation(path)
    id_list = prs.slides._sldIdLst
    for slide, sld_id in zip(list(prs.slides), list(id_list), strict=True):
        if slide_title(slide) in titles:
            prs.part.drop_rel(sld_id.rId)
            id_list.remove(sld_id)
    prs.save(path)


def initial_setup(P):
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    first = prs.slides.add_slide(prs.slide_layouts[0])
    first.shapes.title.text = P["deck"]
    first.placeholders[1].text = P["client"]
    for spec in P["slides"]:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = spec["title"]
        slide.placeholders[1].text = spec["body"]
        if spec["note"]:
            slide.notes_slide.notes_text_frame.text = spec["note"]
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)


def golden_patch(P):
    _delete_slides(P, [s["title"] for s in P["slides"] if s["rule"]])


def near_miss(P):
    # Only the rule visible in the slide pane was applied; the "CUT" notes were never looked at.
    _delete_slides(P, [s["title"] for s in P["slides"] if s["rule"] == "backup"])


def reward(P):
    from pptx import Presentation

    cache = []

    def titles():
        """Slide titles of the saved deck in order, read once inside a component."""
        if not cache:
            cache.extend(slide_title(slide) for slide in Presentation(HOME / P["path"]).slides)
        return cache

    keep = [P["deck"]] + [s["title"] for s in P["slides"] if not s["rule"]]
    known = set(keep) | {s["title"] for s in P["slides"]}

    def removed(rule):
        """Share of the slides picked by `rule` that are gone, if every other slide stayed in order."""
        if [t for t in titles() if t in keep] != keep or not set(titles()) <= known:
            return 0.0  # a kept slide was deleted, duplicated or moved, or a slide was added
        picked = [s["title"] for s in P["slides"] if s["rule"] == rule]
        return sum(t not in titles() for t in picked) / len(picked)

    @precondition("the deck still opens with its title slide")
    def title_slide_kept():
        return titles()[:1] == [P["deck"]]

    @component("slides titled \"Backup: ...\" are deleted, every other slide kept in order", 0.5)
    def backups_removed():
        return removed("backup")

    @component("slides whose speaker notes say CUT are deleted, every other slide kept in order", 0.5)
    def cut_removed():
        return removed("cut")


class PruneSlides(Family):
    id = "impress.prune_slides"
    apps = ("impress",)
    difficulty = Difficulty.MEDIUM
    leaves = ("impress/slides/manage/delete_slide", "impress/notes/speaker_notes/notes_view")
    domains = (Domain.SALES, Domain.CONSTRUCTION, Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (norm, slide_title, _delete_slides)
    templates = {
        Wording.IMPERATIVE: "Before {file} goes to {client}, delete every slide whose title starts with "
        "\"Backup:\" and every slide whose speaker notes contain the word CUT. Keep all other slides in "
        "their current order and save as .pptx.",
        Wording.REQUEST: "Could you prepare the client version of {file} for {client}? Please remove the "
        "\"Backup:\" slides and any slide I marked CUT in the speaker notes, without touching the rest. "
        "Save it as .pptx.",
        Wording.CONTEXTUAL: "As {persona}, I share {file} with {client} this afternoon. Internal material "
        "has to go: all slides titled \"Backup: ...\" and all slides with CUT in their notes. The "
        "remaining slides stay exactly as they are, in order. Save the .pptx.",
        Wording.GOAL: "Goal: {file} contains no slide whose title begins with \"Backup:\" and no slide "
        "whose speaker notes mention CUT, while every other slide is still there in its original order. "
        "Saved as .pptx.",
        Wording.PROBLEM_FIX: "{file} still contains internal slides that {client} must not see: the ones "
        "titled \"Backup: ...\" and the ones whose notes say CUT. Delete those, leave everything else "
        "as it is, and save the .pptx.",
    }

    def draw(self, rng: random.Random) -> dict:
        deck = rng.choice(sorted(DECKS))
        slides = [{"title": t, "rule": "", "note": rng.choice(KEEP_NOTES) if rng.random() < 0.4 else ""}
                  for t in rng.sample(DECKS[deck], rng.randint(5, 7))]  # fmt: skip
        for topic in rng.sample(BACKUP_TOPICS, rng.randint(1, 2)):
            slides.insert(rng.randint(1, len(slides)), {"title": f"Backup: {topic}", "rule": "backup", "note": ""})
        plain = [i for i, s in enumerate(slides) if not s["rule"]]
        for i in rng.sample(plain, rng.randint(1, 2)):
            slides[i] = {**slides[i], "rule": "cut", "note": rng.choice(CUT_NOTES)}
        for spec in slides:
            spec["body"] = f"{spec['title'].split(': ')[-1]}: details for discussion"
        client = rng.choice(["Harlow District Council", "Brightwater Hotels", "Meridian Clinics", "Oakline Schools"])
        return {
            "deck": deck,
            "client": client,
            "path": f"Desktop/{deck.lower().replace(' ', '_')}_{client.split()[0].lower()}.pptx",
            "slides": slides,
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "client": P["client"]}

    def context(self, P: dict) -> str:
        rows = [(s["title"], s["note"]) for s in P["slides"]]
        return (
            f"~/{P['path']}: title slide {P['deck']!r} / {P['client']!r}, then (title, speaker notes): {rows}. "
            f"Expected: the slides titled 'Backup: ...' and those whose notes contain CUT are deleted; the "
            f"others ({[s['title'] for s in P['slides'] if not s['rule']]}) remain in that order."
        )
