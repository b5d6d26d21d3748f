"""The corruptions a careless agent makes in a document."""

from __future__ import annotations

import copy
from pathlib import Path

from mutator.core import Corruption
from mutator.docs.blocks import PPR_ORDER, RPR_ORDER, blocks, runs_of, text_of
from mutator.docs.ops import _pr_facts, _props, put_props
from mutator.docs.plan import _Plan, _plan, _remove
from mutator.office import wrong_format
from mutator.ooxml import children, insert_ordered, local, short

# --- corruptions -------------------------------------------------------------------------------------------


def _plain_text(path: Path) -> str:
    import docx

    return "\n".join(text_of(el) for el in blocks(docx.Document(path))) + "\n"


def _doc_op(rel: str, fn):
    def op(home: Path) -> None:
        import docx

        doc = docx.Document(home / rel)
        fn(doc)
        doc.save(home / rel)

    return op


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    found = [wrong_format("plain", rel, lambda path: _plain_text(path))]
    if initial is None:
        return found
    plan = _plan(rel, str(initial), str(golden))
    alone = [  # paragraphs no unit touches, with text, that end no section
        j
        for _, j in plan.pairs
        if j not in plan.touched
        and local(plan.gb[j]) == "p"
        and text_of(plan.gb[j]).strip()
        and not _pr_facts(plan.gb[j], "pPr", ("sectPr",))
    ]
    if alone:
        j = max(alone, key=lambda x: (len(text_of(plan.gb[x])), -x))  # the longest: body text
        found.append(
            Corruption(
                "corrupt.extra_change",
                rel,
                f"{rel}: paragraph {j + 1} {short(text_of(plan.gb[j]), 50)}, which the task leaves alone, deleted",
                _doc_op(rel, lambda doc, j=j: _remove(blocks(doc)[j])),
            )
        )
    overreach = _overreach(plan, alone)
    if overreach is not None:
        found.append(overreach)
    return found


def _overreach(plan: _Plan, alone: list[int]) -> Corruption | None:
    """The golden's change spread too far: a character format it gave part of a paragraph given to
    the whole paragraph (select all, Ctrl+B), or a paragraph style it gave given to a paragraph it
    left alone."""
    rel = plan.rel
    for j in plan.reformatted:
        for tag in ("b", "i", "u", "highlight", "color", "sz", "rStyle"):
            props = [_props(r, "rPr") for r in runs_of(plan.gb[j])]
            on = [el for pr in props if pr is not None for el in children(pr, tag)]
            if on and len(on) < len(runs_of(plan.gb[j])):

                def spread(doc, j=j, el=on[0]):
                    for r in runs_of(blocks(doc)[j]):
                        pr = _props(r, "rPr", create=True)
                        for old in children(pr, local(el)):
                            pr.remove(old)
                        insert_ordered(pr, copy.deepcopy(el), RPR_ORDER)

                shown = {
                    "b": "bold",
                    "i": "italic",
                    "u": "underline",
                    "color": "colour",
                    "sz": "size",
                    "rStyle": "style",
                }
                what = f"{rel}: paragraph {j + 1}'s {shown.get(tag, tag)} spread from part of it to the whole paragraph"
                return Corruption("corrupt.overreach", rel, what, _doc_op(rel, spread))
    for j, style in plan.restyled:
        if style and alone:
            target = max(alone, key=lambda x: (len(text_of(plan.gb[x])), -x))

            def restyle(doc, target=target, source=plan.gb[j]):
                put_props(plan.g, source, doc, blocks(doc)[target], "pPr", ("pStyle",), PPR_ORDER)

            what = f"{rel}: style {style} also given to paragraph {target + 1}, which the task leaves alone"
            return Corruption("corrupt.overreach", rel, what, _doc_op(rel, restyle))
    return None
