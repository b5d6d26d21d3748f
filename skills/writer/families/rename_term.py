"""Writer: replace a renamed project's name throughout a memo, whole words only. Data and wording: rename_term.yaml.

The memo names the project in body paragraphs and in a table, and also a place whose name merely
*contains* the old name (e.g. "Falconridge"): a plain Replace All without "Whole words only" rewrites
that place too, the classic Find & Replace slip.
"""

from skills.kit.guest.docs import add_table, new_doc, norm, open_doc, save_doc
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    old, new, place = rng.choice(pools["renames"])
    fill = {"T": old, "D": place, "month": rng.choice(pools["months"]), "person": rng.choice(pools["people"])}
    fill |= {"amount": f"${rng.randint(12, 95) * 1000:,}", "year": str(rng.randint(2009, 2021))}
    term = [s.format(**fill) for s in rng.sample(pools["term_sentences"], rng.randint(3, 5))]
    places = [s.format(**fill) for s in rng.sample(pools["place_sentences"], rng.randint(1, 2))]
    neutral = rng.sample(pools["neutral_sentences"], 2)
    paragraphs = term + places + neutral
    rng.shuffle(paragraphs)
    owners = rng.sample(pools["people"], 3)
    kind = rng.choice(pools["doc_kinds"])
    labels = [f"{old} roadmap", f"{old} training", f"{place} lease"]
    return {
        "old": old,
        "new": new,
        "place": place,
        "path": f"Documents/{old.lower()}_{kind}_{rng.randint(10, 99)}.docx",
        "title": f"Project {old}: {kind.replace('_', ' ').title()}",
        "paragraphs": paragraphs,
        "neutral": neutral,
        "table": [["Workstream", "Owner"], *map(list, zip(labels, owners, strict=True))],
        "closing": f"Prepared by {fill['person']}.",
        "author": rng.choice(pools["people"]),
    }


def whole_word(term):
    import re

    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(term) + r"(?![A-Za-z0-9])")


def initial_setup(P):
    doc = new_doc(P["author"])
    doc.add_paragraph(P["title"], style="Title")
    for text in P["paragraphs"]:
        doc.add_paragraph(text)
    add_table(doc, P["table"])
    doc.add_paragraph(P["closing"])
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    doc = open_doc(P["path"])
    paragraphs = list(doc.paragraphs)
    if mistake != "text_only":
        paragraphs += [
            p for table in doc.tables for row in table.rows for c in row.cells for p in c.paragraphs
        ]
    for paragraph in paragraphs:
        for run in paragraph.runs:  # the setup never splits a name across runs
            if mistake == "substrings":
                run.text = run.text.replace(P["old"], P["new"])
            else:
                run.text = whole_word(P["old"]).sub(P["new"], run.text)
    save_doc(doc, P["path"])


def reward(P):
    from functools import cache

    pattern = whole_word(P["old"])

    @cache
    def texts():
        """(paragraph texts, table cell texts) of the saved memo."""
        doc = open_doc(P["path"])
        cells = [norm(c.text) for table in doc.tables for row in table.rows for c in row.cells]
        return [norm(p.text) for p in doc.paragraphs], cells

    def share_renamed(originals, found):
        targets = [t for t in originals if pattern.search(t)]
        return sum(norm(pattern.sub(P["new"], t)) in found for t in targets) / len(targets)

    @precondition("the memo's untouched paragraphs are still there")
    def neutral_intact():
        return all(norm(text) in texts()[0] for text in [*P["neutral"], P["closing"]])

    @component("every paragraph naming the project now uses the new name", 0.45)
    def paragraphs_renamed():
        return share_renamed([P["title"], *P["paragraphs"]], texts()[0])

    @component("table cells naming the project now use the new name", 0.25)
    def cells_renamed():
        return share_renamed([t for row in P["table"] for t in row], texts()[1])

    @component("whole words only: every old name became the new one, place names untouched", 0.30)
    def whole_words_only():
        found = texts()[0] + texts()[1]
        originals = [P["title"], *P["paragraphs"], *(c for row in P["table"] for c in row)]
        renamed = sum(len(whole_word(P["new"]).findall(t)) for t in found)
        all_renamed = renamed >= sum(len(pattern.findall(t)) for t in originals)  # deleting is not renaming
        places_kept = all(norm(t) in found for t in originals if P["place"] in t)
        return all_renamed and not any(pattern.search(t) for t in found) and places_kept


def demonstrate(P, screen):
    """Writer is open on the memo: Find & Replace (Ctrl+H), old name -> new name with "Whole words
    only" ticked, Replace All (it covers the table too), close, save keeping docx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    click = lambda element: {"action": "left_click", "coordinate": list(element.center)}  # noqa: E731

    def field(label_name):
        """The entry to the right of a dialog label ("Find:", "Replace:")."""
        label = screen.find(
            lambda e: e.role == "label" and e.name == label_name, what=f"the {label_name} label"
        )
        row = label.y + label.h // 2
        return screen.find(
            lambda e: e.role == "text" and e.x > label.x and abs(e.y + e.h // 2 - row) < 30,
            what=f"the {label_name} field",
        )

    yield [key("ctrl", "h")]
    screen.wait_until(lambda: screen.has_window("Find and Replace"), what="the Find and Replace dialog")
    find, replace = field("Find:"), field("Replace:")
    yield [click(find), key("ctrl", "a"), {"action": "type", "text": P["old"]}]
    yield [click(replace), key("ctrl", "a"), {"action": "type", "text": P["new"]}]
    whole = screen.find(
        lambda e: e.role == "check-box" and e.name == "Whole words only", what="Whole words only"
    )
    yield [click(whole)]  # unticked in a fresh profile: without it the place name would change too
    replace_all = screen.find(
        lambda e: e.role == "push-button" and e.name == "Replace All", what="Replace All"
    )
    yield [click(replace_all), {"action": "wait", "time": 1.0}]
    close = screen.find(lambda e: e.role == "push-button" and e.name == "Close", what="the dialog's Close")
    yield [click(close)]
    screen.wait_until(lambda: not screen.has_window("Find and Replace"), what="the dialog to close")
    yield from save_keeping_format(screen)
