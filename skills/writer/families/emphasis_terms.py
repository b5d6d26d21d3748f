"""Writer: bold the deadline and italicise the cited title in a memo. Data and wording: emphasis_terms.yaml.

Formatting is checked per character (runs split arbitrarily), with inheritance from character and
paragraph styles resolved, so Ctrl+B and LibreOffice's "Strong Emphasis" style both count. Bolding or
italicising more than the phrase (a whole paragraph) earns nothing for that component.
"""

import datetime

from skills.kit.guest.docs import char_flags, new_doc, open_doc, save_doc
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format


def draw(rng, pools):
    day = datetime.date(rng.randint(2025, 2027), rng.choice(pools["months"]), rng.randint(2, 28))
    while day.weekday() > 4:  # deadlines fall on working days
        day += datetime.timedelta(days=1)
    deadline = f"by {day:%A} {day.day} {day:%B}"
    document = rng.choice(pools["documents"])
    paragraphs = [rng.choice(pools["deadline_sentences"]).format(D=deadline)]
    paragraphs += [rng.choice(pools["title_sentences"]).format(T=document)]
    paragraphs += rng.sample(pools["neutral"], rng.randint(1, 3))
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


def initial_setup(P):
    doc = new_doc(P["author"])
    doc.add_paragraph(P["heading"], style="Title")
    for text in [*P["paragraphs"], P["signature"]]:
        doc.add_paragraph(text)
    save_doc(doc, P["path"])


def solve(P, *, mistake=None):
    doc = open_doc(P["path"])
    for paragraph in doc.paragraphs:
        text = paragraph.text
        for phrase, attr in ((P["deadline"], "bold"), (P["document"], "italic")):
            if phrase not in text:
                continue
            for run in list(paragraph.runs):
                run._r.getparent().remove(run._r)
            before, after = text.split(phrase, 1)
            runs = [paragraph.add_run(before), paragraph.add_run(phrase), paragraph.add_run(after)]
            emphasised = runs if attr == "italic" and mistake == "italic_sentence" else runs[1:2]
            for run in emphasised:
                setattr(run.font, attr, True)
    save_doc(doc, P["path"])


def reward(P):
    from functools import cache

    @cache
    def body():
        """(text, flags) of the memo's body paragraphs (not the title)."""
        paragraphs = open_doc(P["path"]).paragraphs
        return [char_flags(p) for p in paragraphs if " ".join(p.text.split()) != P["heading"]]

    def emphasised_exactly(phrase, which):
        """Every letter of `phrase` has the flag; no letter elsewhere in the body has it."""
        inside = outside = 0
        for text, flags in body():
            start = text.find(phrase)
            span = range(start, start + len(phrase)) if start >= 0 else range(0)
            for i, ch in enumerate(text):
                if ch.isalnum() and flags[i][which]:
                    inside, outside = (inside + 1, outside) if i in span else (inside, outside + 1)
        return inside == sum(ch.isalnum() for ch in phrase) and outside == 0

    @precondition("the memo's text is unchanged")
    def text_intact():
        texts = [" ".join(text.split()) for text, _ in body()]
        return all(" ".join(p.split()) in texts for p in [*P["paragraphs"], P["signature"]])

    @component(f'the deadline "{P["deadline"]}" (and nothing else) is bold', 0.5)
    def deadline_bold():
        return emphasised_exactly(P["deadline"], 0)

    @component(f'the title "{P["document"]}" (and nothing else) is italic', 0.5)
    def title_italic():
        return emphasised_exactly(P["document"], 1)


def demonstrate(P, screen):
    """Writer is open on the memo: for each phrase, Find & Replace (Ctrl+H) > Find All selects it,
    close the dialog, Ctrl+B or Ctrl+I on the selection; save keeping docx."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    click = lambda element: {"action": "left_click", "coordinate": list(element.center)}  # noqa: E731

    def button(name):
        return screen.find(lambda e: e.role == "push-button" and e.name == name, what=f"the {name} button")

    for phrase, shortcut in ((P["deadline"], "b"), (P["document"], "i")):
        yield [key("ctrl", "h")]
        screen.wait_until(lambda: screen.has_window("Find and Replace"), what="the Find and Replace dialog")
        label = screen.find(lambda e: e.role == "label" and e.name == "Find:", what="the Find: label")
        field = screen.find(
            lambda e, label=label: e.role == "text" and e.x > label.x and abs(e.y - label.y) < 30,
            what="the Find field",
        )
        # The field may hold the last search (or the selection): replace whatever is there.
        yield [click(field), key("ctrl", "a"), {"action": "type", "text": phrase}]
        yield [click(button("Find All")), {"action": "wait", "time": 1.0}]
        yield [click(button("Close"))]
        screen.wait_until(lambda: not screen.has_window("Find and Replace"), what="the dialog to close")
        yield [key("ctrl", shortcut)]
    yield from save_keeping_format(screen)
