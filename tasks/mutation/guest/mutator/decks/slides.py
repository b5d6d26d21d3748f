"""A deck's slides and shapes as the units see them: shapes, their text and runs, slide titles,
texts and notes, and the matching of the two versions' slides (by content) and shapes (by id, then
name)."""

from __future__ import annotations

import difflib
from functools import cache

from mutator.ooxml import _words, children, local

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SHAPES = ("sp", "pic", "graphicFrame", "grpSp", "cxnSp", "contentPart")
RUN_ATTRS = {
    "bold": "b",
    "italic": "i",
    "underline": "u",
    "strike": "strike",
    "size": "sz",
    "caps": "cap",
    "baseline": "baseline",
}
RUN_CHILDREN = {
    "colour": ("noFill", "solidFill", "gradFill", "blipFill", "pattFill", "grpFill"),
    "font": ("latin", "ea", "cs", "sym"),
    "highlight": ("highlight",),
}
RPR_ORDER = _words(
    "ln noFill solidFill gradFill blipFill pattFill grpFill effectLst effectDag highlight uLnTx uLn uFillTx "
    "uFill latin ea cs sym hlinkClick hlinkMouseOver rtl extLst"
)
NOISE = {"lang", "altLang", "dirty", "err", "noProof", "smtClean", "smtId", "bmk", "kumimoji", "normalizeH"}


def qa(tag: str) -> str:
    return f"{{{A}}}{tag}"


def shapes_of(slide) -> list:
    return [el for el in children(slide._element.cSld.spTree) if local(el) in SHAPES]


def shape_text(el) -> list[str]:
    body = _body(el)
    return [_para_text(p) for p in children(body, "p")] if body is not None else []


def _para_text(p) -> str:
    return "".join((t.text or "") if local(t) == "t" else "\n" for t in p.iter(qa("t"), qa("br")))


def _body(el):
    return next((c for c in children(el) if local(c) == "txBody"), None)


def _runs(el) -> list:
    body = _body(el)
    return (
        [r for p in children(body, "p") for r in children(p) if local(r) in ("r", "fld")]
        if body is not None
        else []
    )


def _is_title(el) -> bool:
    ph = next(el.iter(f"{{{P}}}ph"), None)
    return ph is not None and ph.get("type") in ("title", "ctrTitle")


def slide_title(slide) -> str:
    found = [el for el in shapes_of(slide) if _is_title(el)]
    return " ".join(" ".join(shape_text(found[0])).split()) if found else ""


def slide_texts(slide) -> tuple:
    return tuple(" ".join(" ".join(shape_text(el)).split()) for el in shapes_of(slide))


def notes_text(slide) -> str:
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return frame.text if frame is not None else ""


def match_slides(before: list, after: list) -> dict[int, int]:
    """golden index -> initial index of the slides that are the same slide in both decks."""
    pairs: dict[int, int] = {}
    keys = [
        lambda s: (s.slide_layout.name, slide_title(s), slide_texts(s), notes_text(s)),
        lambda s: (s.slide_layout.name, slide_title(s), slide_texts(s)),
        lambda s: slide_title(s) or None,
    ]
    for key in keys:
        free = [i for i in range(len(before)) if i not in pairs.values()]
        for j, slide in enumerate(after):
            if j in pairs or key(slide) is None:
                continue
            hit = next((i for i in free if key(before[i]) == key(slide)), None)
            if hit is not None:
                pairs[j] = hit
                free.remove(hit)
    for j, slide in enumerate(after):  # what is left: similar texts
        if j in pairs:
            continue
        free = [i for i in range(len(before)) if i not in pairs.values()]
        text = " ".join(slide_texts(slide))

        def ratio(i, text=text):
            return difflib.SequenceMatcher(
                None, " ".join(slide_texts(before[i])), text, autojunk=False
            ).ratio()

        best = max(free, key=ratio, default=None)
        if best is not None and ratio(best) >= 0.6:
            pairs[j] = best
    return pairs


def match_shapes(before: list, after: list) -> dict[int, int]:
    pairs: dict[int, int] = {}

    def props(el):
        return next(el.iter(f"{{{P}}}cNvPr"), None)

    for key in (lambda el: props(el).get("id"), lambda el: props(el).get("name")):
        for j, el in enumerate(after):
            if j in pairs or props(el) is None:
                continue
            hit = next(
                (
                    i
                    for i, x in enumerate(before)
                    if i not in pairs.values() and props(x) is not None and key(x) == key(el)
                ),
                None,
            )
            if hit is not None:
                pairs[j] = hit
    return pairs


@cache
def _source(path: str):
    from pptx import Presentation

    return Presentation(path)
