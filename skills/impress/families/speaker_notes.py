"""Impress: add speaker notes to two named slides of a training deck. Data and wording: speaker_notes.yaml."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import add_slide, new_deck, norm, open_deck, save_deck, slide_texts, slide_title


def draw(rng, pools):
    deck = rng.choice(sorted(pools["decks"]))
    subtitle, slides = pools["decks"][deck]
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


def initial_setup(P):
    prs = new_deck()
    add_slide(prs, 0, P["deck"], [P["subtitle"]]).notes_slide.notes_text_frame.text = P["opening_note"]
    for title, bullets in P["slides"]:
        add_slide(prs, 1, title, bullets)
    save_deck(prs, P["path"])


def solve(P, *, mistake=None):
    prs = open_deck(P["path"])
    slides = list(prs.slides)
    titles = [slide_title(s) for s in slides]
    for n, target in enumerate(P["targets"][:1] if mistake == "one_note" else P["targets"]):
        slide = slides[titles.index(target["title"]) + (n == 1 and mistake == "next_slide")]
        slide.notes_slide.notes_text_frame.text = target["note"]
    save_deck(prs, P["path"])


def reward(P):
    from functools import cache

    slides = cache(lambda: list(open_deck(P["path"]).slides))  # read inside a component

    def titled(title):
        return [slide for slide in slides() if slide_title(slide) == norm(title)]

    def notes_of(title):
        found = titled(title)
        if len(found) != 1 or not found[0].has_notes_slide:  # notes slides exist only once written
            return ""
        frame = found[0].notes_slide.notes_text_frame
        return norm(frame.text if frame is not None else "")

    def same(a, b):
        return norm(a).casefold().rstrip(".") == norm(b).casefold().rstrip(".")

    @precondition("the deck still has its slides, each title once, their text unchanged")
    def slides_intact():
        texts = {P["deck"]: [P["subtitle"]]} | dict(P["slides"])
        kept = all(lines == texts[t] for t, lines in slide_texts(P["path"]) if t in texts)
        return kept and all(len(titled(t)) == 1 for t, _ in P["slides"])

    first, second = P["targets"]

    @component(f'slide "{first["title"]}" has the requested speaker note', 0.5)
    def first_note():
        return same(notes_of(first["title"]), first["note"])

    @component(f'slide "{second["title"]}" has the requested speaker note', 0.5)
    def second_note():
        return same(notes_of(second["title"]), second["note"])
