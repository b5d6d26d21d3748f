"""The corruptions a careless agent makes in a deck."""

from __future__ import annotations

from pathlib import Path

from mutator.core import Corruption
from mutator.decks.ops import remove_slide
from mutator.decks.plan import _plan
from mutator.decks.slides import _is_title, _runs, shape_text, shapes_of
from mutator.office import wrong_format
from mutator.ooxml import child, short

# --- corruptions -----------------------------------------------------------------------------------------


def _plain_text(path: Path) -> str:
    from pptx import Presentation

    lines = []
    for slide in Presentation(path).slides:
        for el in shapes_of(slide):
            lines += shape_text(el)
        lines.append("")
    return "\n".join(lines)


def _deck_op(rel: str, fn):
    def op(home: Path) -> None:
        from pptx import Presentation

        prs = Presentation(home / rel)
        fn(prs)
        prs.save(home / rel)

    return op


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    found = [wrong_format("plain", rel, lambda path: _plain_text(path))]
    if initial is None:
        return found
    plan = _plan(rel, str(initial), str(golden))
    matched_g = sorted(plan.pairs)  # golden order, and the same slides in the initial order
    matched_i = [plan.pairs[j] for j in sorted(plan.pairs, key=plan.pairs.get)]

    def before(order, x):
        at = order.index(x)
        return order[at - 1] if at else None

    # left alone: no unit on it, and after the same slide in both orders (which slide of a
    # reordering counts as the moved one is a choice; where each slide now stands is not)
    alone = [
        j
        for j in matched_g
        if j not in plan.touched and before(matched_i, plan.pairs[j]) == plan.pairs.get(before(matched_g, j))
    ]
    later = [j for j in alone if j > 0] or alone  # the title slide's loss says nothing new
    if later:
        j = later[len(later) // 2]
        name = plan._name(plan.gslides[j])
        found.append(
            Corruption(
                "corrupt.extra_change",
                rel,
                f"{rel}: slide {j + 1} {name}, which the task leaves alone, deleted",
                _deck_op(rel, lambda prs, j=j: remove_slide(prs, j)),
            )
        )
    for j in later:
        shapes = [
            (n, el)
            for n, el in enumerate(shapes_of(plan.gslides[j]))
            if any(t.strip() for t in shape_text(el))
        ]
        body = [(n, el) for n, el in shapes if not _is_title(el)] or shapes
        if not body:
            continue
        n, el = body[0]

        def edit(prs, j=j, n=n):
            runs = [r for r in _runs(shapes_of(prs.slides[j])[n]) if child(r, "t") is not None]
            t = child(runs[0], "t")
            t.text = (t.text or "") + " (edited)"

        what = (
            f"{rel}: slide {j + 1} {plan._name(plan.gslides[j])} text {short(shape_text(el)[0])}, which the task "
            "leaves alone, edited"
        )
        found.append(Corruption("corrupt.extra_change", rel, what, _deck_op(rel, edit)))
        break
    return found
