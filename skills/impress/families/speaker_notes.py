"""Impress: add speaker notes to two named slides of a training deck. Data and wording: speaker_notes.yaml."""

from skills.impress.families._gui import go_to_slide, save_keeping_pptx, view_menu, wait_look
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


def demonstrate(P, screen):
    """Impress shows the deck in Normal view: switch to View > Notes, and for each target slide select its
    notes box (Tab passes the slide image first), type the note, then save keeping .pptx."""
    titles = [P["deck"]] + [title for title, _ in P["slides"]]
    wait_look(screen, lambda seen: seen.pane == titles, what="the slide pane to list the deck")
    yield view_menu("e")
    wait_look(screen, lambda seen: seen.notes_view, what="the Notes view")
    for target in P["targets"]:
        yield from go_to_slide(screen, titles.index(target["title"]) + 1, target["title"])
        yield [
            {"action": "key", "keys": ["tab"]},  # the slide image
            {"action": "key", "keys": ["tab"]},  # the notes box
            {"action": "key", "keys": ["enter"]},  # edit its text
        ]
        # Typed at once, the note comes out scrambled: the view scrolls to the box and the cursor jumps.
        wait_look(screen, lambda seen: seen.editing_notes, timeout_s=10, what="the cursor in the notes box")
        yield [{"action": "type", "text": target["note"]}]
        note = norm(target["note"])
        wait_look(screen, lambda seen, n=note: norm(seen.notes) == n, timeout_s=10, what="the typed note")
        yield [{"action": "key", "keys": ["escape"]}]
    yield from save_keeping_pptx(screen)
