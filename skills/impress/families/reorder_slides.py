"""Impress: move two misplaced slides of a meeting deck back. Data and wording: reorder_slides.yaml.

One content slide must come right after a named slide, and the closing slide must be last. Every other
slide keeps its relative order (moving slides is not re-sorting the deck).
"""

from skills.impress.families._gui import go_to_slide, save_keeping_pptx, slide_menu, wait_look
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import add_slide, arrange_slides, new_deck, open_deck, save_deck, slide_texts


def draw(rng, pools):
    deck = rng.choice(sorted(pools["decks"]))
    logical, closing = pools["decks"][deck]
    contents = [logical[0]] + sorted(
        rng.sample(logical[1:], rng.randint(4, len(logical) - 1)), key=logical.index
    )
    order = [deck, *contents, closing]
    k = rng.randint(2, len(contents) - 1)  # position in `order` of the slide to misplace
    moved, anchor = order[k + 1], order[k]
    initial = [t for t in order if t not in (moved, closing)]
    spots = [i for i in range(1, len(initial) + 1) if initial[i - 1] != anchor]
    initial.insert(rng.choice(spots), moved)
    initial.insert(rng.randint(1, len(initial) - 1), closing)  # anywhere but first and last
    staff = ["Ana", "Raj", "Lee", "Kim"]
    bullets = {t: [f"Key points on {t.lower().rstrip('?')}", f"Owner: {rng.choice(staff)}"] for t in contents}
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


def initial_setup(P):
    prs = new_deck()
    for title in P["initial"]:
        if title == P["deck"]:
            add_slide(prs, 0, title, [P["subtitle"]])
        else:  # the closing slide has the Title Only layout
            add_slide(prs, 5 if title == P["closing"] else 1, title, P["bullets"].get(title, []))
    save_deck(prs, P["path"])


def solve(P, *, mistake=None):
    order = [t for t in P["order"] if t != P["moved"]]
    order.insert(order.index(P["anchor"]) + (mistake != "before_anchor"), P["moved"])
    if mistake == "closing_first":  # right after the title slide: the anchor is never slide 1 or 2
        order.insert(1, order.pop())
    prs = open_deck(P["path"])
    arrange_slides(prs, order)
    save_deck(prs, P["path"])


def reward(P):
    from functools import cache

    fixed = [t for t in P["order"] if t not in (P["moved"], P["closing"])]
    titles = cache(lambda: [title for title, _ in slide_texts(P["path"])])  # read inside a component

    def others_in_place():
        """The untouched slides keep their relative order, title slide first."""
        return [t for t in titles() if t in fixed] == fixed and titles()[:1] == [P["deck"]]

    @precondition("every slide is still in the deck exactly once, its text unchanged")
    def same_slides():
        texts = {P["deck"]: [P["subtitle"]], P["closing"]: []} | P["bullets"]
        kept = all(lines == texts[t] for t, lines in slide_texts(P["path"]) if t in texts)
        return kept and sorted(titles()) == sorted(P["order"])

    @component(f'"{P["moved"]}" comes right after "{P["anchor"]}"', 0.5)
    def moved_after_anchor():
        at = titles().index(P["moved"])
        return at > 0 and titles()[at - 1] == P["anchor"] and others_in_place()

    @component(f'"{P["closing"]}" is the last slide', 0.5)
    def closing_last():
        return titles()[-1] == P["closing"] and others_in_place()


def demonstrate(P, screen):
    """Impress shows the deck in Normal view: move the closing slide to the end (Slide > Move > Slide to
    End), then step the misplaced slide down or up (Slide > Move > Slide Down/Up) until it follows its
    anchor, reading the order back from the slide pane; save keeping .pptx."""
    order = wait_look(
        screen, lambda seen: seen.pane == P["initial"], what="the slide pane to list the deck"
    ).pane
    yield from go_to_slide(screen, order.index(P["closing"]) + 1, P["closing"])
    yield slide_menu("v", "t")
    order = [t for t in order if t != P["closing"]] + [P["closing"]]
    wait_look(screen, lambda seen: seen.pane == order, what="the closing slide to be last")
    at, anchor = order.index(P["moved"]), order.index(P["anchor"])
    yield from go_to_slide(screen, at + 1, P["moved"])
    # Moving down passes the anchor (it ends where the anchor was); moving up stops just below it.
    steps, key = (anchor - at, "d") if at < anchor else (at - anchor - 1, "u")
    for _ in range(steps):
        yield slide_menu("v", key)
    order.remove(P["moved"])
    order.insert(order.index(P["anchor"]) + 1, P["moved"])
    wait_look(screen, lambda seen: seen.pane == order, what="the moved slide to follow its anchor")
    yield from save_keeping_pptx(screen)
