"""Impress: delete the slides two rules pick out before a deck goes to a client. Data and wording: prune_slides.yaml.

Rule 1 is visible in the slide pane (titles starting with "Backup:"); rule 2 only in the Notes view
(speaker notes containing "CUT"). Every other slide must survive, in its order.
"""

from skills.impress.families._gui import go_to_slide, save_keeping_pptx, slide_menu, view_menu, wait_look
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import add_slide, arrange_slides, new_deck, open_deck, save_deck, slide_texts


def draw(rng, pools):
    deck = rng.choice(sorted(pools["decks"]))
    slides = []
    for title in rng.sample(pools["decks"][deck], rng.randint(5, 7)):
        slides.append(
            {
                "title": title,
                "rule": "",
                "note": rng.choice(pools["keep_notes"]) if rng.random() < 0.4 else "",
            }
        )
    for topic in rng.sample(pools["backup_topics"], rng.randint(1, 2)):
        slides.insert(
            rng.randint(1, len(slides)), {"title": f"Backup: {topic}", "rule": "backup", "note": ""}
        )
    plain = [i for i, s in enumerate(slides) if not s["rule"]]
    for i in rng.sample(plain, rng.randint(1, 2)):
        slides[i] = {**slides[i], "rule": "cut", "note": rng.choice(pools["cut_notes"])}
    for spec in slides:
        spec["body"] = f"{spec['title'].split(': ')[-1]}: details for discussion"
    client = rng.choice(pools["clients"])
    path = f"Desktop/{deck.lower().replace(' ', '_')}_{client.split()[0].lower()}.pptx"
    return {"deck": deck, "client": client, "path": path, "slides": slides}


def initial_setup(P):
    prs = new_deck()
    add_slide(prs, 0, P["deck"], [P["client"]])
    for spec in P["slides"]:
        slide = add_slide(prs, 1, spec["title"], [spec["body"]])
        if spec["note"]:
            slide.notes_slide.notes_text_frame.text = spec["note"]
    save_deck(prs, P["path"])


def solve(P, *, mistake=None):
    gone = {"notes_unread": ["backup"], "backups_kept": ["cut"]}.get(mistake, ["backup", "cut"])
    prs = open_deck(P["path"])
    arrange_slides(prs, [P["deck"]] + [s["title"] for s in P["slides"] if s["rule"] not in gone])
    save_deck(prs, P["path"])


def reward(P):
    from functools import cache

    titles = cache(lambda: [title for title, _ in slide_texts(P["path"])])  # read inside a component
    keep = [P["deck"]] + [s["title"] for s in P["slides"] if not s["rule"]]
    known = set(keep) | {s["title"] for s in P["slides"]}

    def removed(rule):
        """Share of the slides picked by `rule` that are gone, if every other slide stayed in order."""
        if [t for t in titles() if t in keep] != keep or not set(titles()) <= known:
            return 0.0  # a kept slide was deleted, duplicated or moved, or a slide was added
        picked = [s["title"] for s in P["slides"] if s["rule"] == rule]
        return sum(t not in titles() for t in picked) / len(picked)

    @precondition("the deck still opens with its title slide, every slide's text unchanged")
    def title_slide_kept():
        texts = {P["deck"]: [P["client"]]} | {s["title"]: [s["body"]] for s in P["slides"]}
        kept = all(lines == texts[t] for t, lines in slide_texts(P["path"]) if t in texts)
        return kept and titles()[:1] == [P["deck"]]

    @component('slides titled "Backup: ..." are deleted, every other slide kept in order', 0.5)
    def backups_removed():
        return removed("backup")

    @component("slides whose speaker notes say CUT are deleted, every other slide kept in order", 0.5)
    def cut_removed():
        return removed("cut")


def demonstrate(P, screen):
    """Impress shows the deck in Normal view: page through it in View > Notes, reading each slide's title
    and speaker notes; then, back in Normal view, delete the picked slides last first (so the earlier
    ones keep their numbers) with Slide > Delete Slide, and save keeping .pptx."""
    import re

    yield view_menu("e")
    wait_look(screen, lambda seen: seen.notes_view, what="the Notes view")
    yield [{"action": "key", "keys": ["escape"]}, {"action": "key", "keys": ["home"]}]
    deck = []  # (title, notes) of each slide, in order
    for number in range(1, len(P["slides"]) + 2):  # the status bar's "Slide 1 of N"
        if number > 1:
            yield [{"action": "key", "keys": ["pagedown"]}]
        seen_titles = {title for title, _ in deck}  # titles are unique: a new one means the page turned
        page = wait_look(
            screen,
            lambda seen, s=seen_titles: seen.slide not in (None, *s),
            timeout_s=10,
            what=f"slide {number}",
        )
        deck.append((page.slide, page.notes))
    picked = [
        number
        for number, (title, notes) in enumerate(deck, start=1)
        if title.startswith("Backup:") or re.search(r"\bCUT\b", notes)
    ]
    yield view_menu("n")
    wait_look(screen, lambda seen: seen.slide is not None and not seen.notes_view, what="the Normal view")
    for number in reversed(picked):
        yield from go_to_slide(screen, number, deck[number - 1][0])
        yield slide_menu("d")  # Slide > Delete Slide
    kept = [title for number, (title, _) in enumerate(deck, start=1) if number not in picked]
    wait_look(screen, lambda seen: seen.pane == kept, what="the slide pane to show the kept slides")
    yield from save_keeping_pptx(screen)
