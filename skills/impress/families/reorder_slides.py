"""Impress: two slides of a meeting deck ended up in the wrong place; move them back.

One content slide must come right after a named slide, and the closing slide must be last. Every other
slide keeps its relative order (moving slides is not re-sorting the deck)."""

from __future__ import annotations

import random

from skills.impress.families._deckkit import norm, slide_title
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

# deck title -> (slides in their logical order, closing slide title)
DECKS = {
    "Product launch review": (["Agenda", "Market context", "Launch timeline", "Channel plan", "Budget",
                               "Risks", "Decisions needed"], "Questions?"),
    "New warehouse proposal": (["Agenda", "Current capacity", "Site options", "Cost comparison",
                                "Staffing", "Timeline", "Recommendation"], "Discussion"),
    "Thesis progress update": (["Outline", "Research question", "Method", "Data collected",
                                "Preliminary results", "Problems so far", "Plan to submission"], "Thank you"),
    "Clinic rota changes": (["Agenda", "Why change", "Current rota", "Proposed rota", "Impact on patients",
                             "Training", "Go-live plan"], "Questions and answers"),
    "Website redesign kickoff": (["Agenda", "Goals", "Audience", "Site map", "Design principles",
                                  "Milestones", "Team roles"], "Next meeting"),
}  # fmt: skip






def _put_in_order(P, order):
    """Rewrite the slide id list of the deck so its slides follow `order` (titles)."""
    from pptx import Presentation

    path = HOME / P["path"]
    prs = Presentation(path)
    id_list = prs.slides._sldIdLst  # python-pptx has no public API to move slides
    by_title = {slide_title(slide): sld_id for slide, sld_id in zip(prs.slides, list(id_list), strict=True)}
    for sld_id in list(id_list):
        id_list.remove(sld_id)
    for title in order:
        id_list.append(by_title[title])
    prs.save(path)


def initial_setup(P):
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    for title in P["initial"]:
        if title == P["deck"]:
            slide = prs.slides.add_slide(prs.slide_layouts[0])
            slide.placeholders[1].text = P["subtitle"]
        elif title == P["closing"]:
            slide = prs.slides.add_slide(prs.slide_layouts[5])  # Title Only
        else:
            slide = prs.slides.add_slide(prs.slide_layouts[1])
            slide.placeholders[1].text = P["bullets"][title]
        slide.shapes.title.text = title
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)


def golden_patch(P):
    _put_in_order(P, P["order"])


def near_miss(P):
    # The closing slide is moved correctly, the other one lands just *before* its anchor.
    order = [t for t in P["order"] if t != P["moved"]]
    order.insert(order.index(P["anchor"]), P["moved"])
    _put_in_order(P, order)


def reward(P):
    from pptx import Presentation

    fixed = [t for t in P["order"] if t not in (P["moved"], P["closing"])]
    cache = []

    def titles():
        """Slide titles of the saved deck in order, read once inside a component."""
        if not cache:
            cache.extend(slide_title(slide) for slide in Presentation(HOME / P["path"]).slides)
        return cache

    def others_in_place():
        """The untouched slides keep their relative order, title slide first."""
        return [t for t in titles() if t in fixed] == fixed and titles()[:1] == [P["deck"]]

    @precondition("every slide is still in the deck exactly once")
    def same_slides():
        return sorted(titles()) == sorted(P["order"])

    @component(f"\"{P['moved']}\" comes right after \"{P['anchor']}\"", 0.5)
    def moved_after_anchor():
        at = titles().index(P["moved"])
        return at > 0 and titles()[at - 1] == P["anchor"] and others_in_place()

    @component(f"\"{P['closing']}\" is the last slide", 0.5)
    def closing_last():
        return titles()[-1] == P["closing"] and others_in_place()


class ReorderSlides(Family):
    id = "impress.reorder_slides"
    apps = ("impress",)
    difficulty = Difficulty.EASY
    leaves = ("impress/slides/manage/reorder_slides",)
    domains = (Domain.MANAGEMENT, Domain.BUSINESS_FINANCE, Domain.SCIENCE, Domain.HEALTHCARE, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL, Scenario.EDUCATIONAL, Scenario.SCIENTIFIC)
    helpers = (norm, slide_title, _put_in_order)
    templates = {
        Wording.IMPERATIVE: "In {file}, move the slide \"{moved}\" so that it comes directly after "
        "\"{anchor}\", and move \"{closing}\" to the end of the deck. Keep all other slides in their "
        "current order and save as .pptx.",
        Wording.REQUEST: "Two slides in {file} are out of place. Could you put \"{moved}\" right after "
        "\"{anchor}\" and make \"{closing}\" the final slide, without reordering anything else? Please "
        "save it as .pptx.",
        Wording.CONTEXTUAL: "As {persona}, I merged slides into {file} in a hurry. \"{moved}\" belongs "
        "immediately after \"{anchor}\", and \"{closing}\" should close the presentation as the last "
        "slide. The remaining slides are already in the right order. Save the .pptx.",
        Wording.GOAL: "Goal: in {file}, the slide after \"{anchor}\" is \"{moved}\", the last slide is "
        "\"{closing}\", and the other slides keep their current relative order. Saved as .pptx.",
        Wording.PROBLEM_FIX: "The story of {file} jumps around because \"{moved}\" is not right after "
        "\"{anchor}\" and \"{closing}\" is not at the end. Fix the slide order (only those two slides "
        "move) and save the .pptx.",
    }

    def draw(self, rng: random.Random) -> dict:
        deck = rng.choice(sorted(DECKS))
        logical, closing = DECKS[deck]
        contents = [logical[0]] + sorted(rng.sample(logical[1:], rng.randint(4, len(logical) - 1)),
                                         key=logical.index)  # fmt: skip
        order = [deck, *contents, closing]
        k = rng.randint(2, len(contents) - 1)  # position in `order` of the slide to misplace
        moved, anchor = order[k + 1], order[k]
        initial = [t for t in order if t not in (moved, closing)]
        spots = [i for i in range(1, len(initial) + 1) if initial[i - 1] != anchor]
        initial.insert(rng.choice(spots), moved)
        initial.insert(rng.randint(1, len(initial) - 1), closing)  # anywhere but first and last
        bullets = {t: f"Key points on {t.lower().rstrip('?')}\nOwner: {rng.choice(['Ana', 'Raj', 'Lee', 'Kim'])}"
                   for t in contents}  # fmt: skip
        return {
            "deck": deck,
            "subtitle": f"{rng.choice(['Steering group', 'Team meeting', 'Review board'])}, week {rng.randint(1, 52)}",
            "path": f"Documents/{deck.lower().replace(' ', '_')}_v{rng.randint(2, 9)}.pptx",
            "order": order,
            "initial": initial,
            "moved": moved,
            "anchor": anchor,
            "closing": closing,
            "bullets": bullets,
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "moved": P["moved"], "anchor": P["anchor"], "closing": P["closing"]}

    def context(self, P: dict) -> str:
        return (
            f"~/{P['path']} has {len(P['initial'])} slides titled, in order, {P['initial']}. Expected order: "
            f"{P['order']} ({P['moved']!r} right after {P['anchor']!r}, {P['closing']!r} last, the others "
            f"in their original relative order, no slide added or removed)."
        )
