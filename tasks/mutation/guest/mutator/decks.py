"""Presentations (.pptx): units per slide (added, removed, moved, layout, notes) and per shape
(added, removed, text, run formatting, text-box format, position and size, fill and line), and the
corruptions a careless agent makes in a deck.

Slides of the two versions are matched by content, never by position (python-pptx renumbers the
slide parts on save, and a reorder is the change itself): the same title and texts first, then
the same title, then similar texts. Matched slides that left the initial order (outside a longest
run kept in order) are one `moved` unit each. Shapes of matched slides are matched by shape id,
then by name. Units:

- pptx.slide.{added,removed,moved,layout}, pptx.notes;
- pptx.shape.{added,removed,text,runs,geometry,format}, pptx.text.format (box and paragraph
  properties: the text box's own list style, alignment, ...), and per run aspect
  pptx.run.{bold,italic,underline,strike,size,caps,baseline,colour,font,highlight} when the golden
  kept the runs as they were (else the formatting is one `runs` unit);
- an added slide is a container: its shapes and notes are units (the initial with the slide
  holding only that shape), the slide itself one too when the file changed elsewhere;
- pptx.property (docProps/core.xml, less what incidental.yaml names).

Ops open the deck with python-pptx, edit its lxml elements (deep copies from the other version;
a picture brings its image part) and save it.
"""

from __future__ import annotations

import copy
import difflib
import io
from functools import cache
from pathlib import Path

from mutator.core import Corruption, OfficePlan, Unit
from mutator.sheets import (
    Package,
    _words,
    canon,
    child,
    children,
    insert_ordered,
    local,
    moved_items,
    preceding,
    property_units,
    same,
    short,
    wrong_format,
)

SUFFIXES = (".pptx",)

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


# --- copying between decks ---------------------------------------------------------------------------------


def carry_rels(src_part, dst_part, el) -> None:
    """Point the relationship references of `el` (copied from src_part) at dst_part's parts: an
    image is added to dst, an external link re-made; anything else cannot be carried: raise."""
    from pptx.opc.constants import RELATIONSHIP_TYPE as RT

    for node in el.iter():
        if not isinstance(node.tag, str):
            continue
        for attr, rid in list(node.attrib.items()):
            if not attr.startswith(f"{{{R}}}"):
                continue
            rel = src_part.rels.get(rid) if hasattr(src_part.rels, "get") else src_part.rels[rid]
            if rel is None:
                raise ValueError(f"dangling relationship {rid}")
            if rel.is_external:
                node.set(attr, dst_part.relate_to(rel.target_ref, rel.reltype, is_external=True))
            elif rel.reltype == RT.IMAGE:
                _, new = dst_part.get_or_add_image_part(io.BytesIO(rel.target_part.blob))
                node.set(attr, new)
            else:
                raise ValueError(f"a {rel.reltype.rsplit('/', 1)[-1]} relationship is not carried")


def _layout(prs, name: str):
    for master in prs.slide_masters:
        for layout in master.slide_layouts:
            if layout.name == name:
                return layout
    raise ValueError(f"the deck has no layout {name!r}")


def copy_slide(src_prs, s_index: int, dst_prs, position: int, keep_shapes=None, keep_notes: bool = True):
    """Insert a copy of src's slide at `position` of dst (its shapes `keep_shapes` only: indices)."""
    s_slide = src_prs.slides[s_index]
    new = dst_prs.slides.add_slide(_layout(dst_prs, s_slide.slide_layout.name))
    tree = copy.deepcopy(s_slide._element.cSld)
    carry_rels(s_slide.part, new.part, tree)
    old = new._element.cSld
    old.addprevious(tree)
    new._element.remove(old)
    if keep_shapes is not None:
        for n, el in enumerate(shapes_of(new)):
            if n not in keep_shapes:
                el.getparent().remove(el)
    if keep_notes and notes_text(s_slide):
        put_notes(s_slide, new)
    id_list = dst_prs.slides._sldIdLst
    entry = children(id_list)[-1]
    id_list.remove(entry)
    id_list.insert(position, entry)
    return new


def remove_slide(prs, index: int) -> None:
    id_list = prs.slides._sldIdLst
    entry = children(id_list)[index]
    id_list.remove(entry)
    prs.part.drop_rel(entry.get(f"{{{R}}}id"))


def move_slide(prs, index: int, after: int | None) -> None:
    """Move slide `index` right after slide `after` (indices before the move; None: first)."""
    id_list = prs.slides._sldIdLst
    entries = children(id_list)
    entry = entries[index]
    anchor = entries[after] if after is not None else None
    id_list.remove(entry)
    (anchor.addnext(entry) if anchor is not None else id_list.insert(0, entry))


def put_notes(s_slide, d_slide) -> None:
    if not notes_text(s_slide):
        if d_slide.has_notes_slide and d_slide.notes_slide.notes_text_frame is not None:
            d_slide.notes_slide.notes_text_frame.text = ""
        return
    s_frame = s_slide.notes_slide.notes_text_frame
    d_frame = d_slide.notes_slide.notes_text_frame
    if d_frame is None:
        raise ValueError("the notes page has no body placeholder")
    old = d_frame._txBody
    new = copy.deepcopy(s_frame._txBody)
    old.addprevious(new)
    old.getparent().remove(old)


def put_layout(src_slide, dst_prs, d_slide) -> None:
    from pptx.opc.constants import RELATIONSHIP_TYPE as RT

    layout = _layout(dst_prs, src_slide.slide_layout.name)
    rid = next(r.rId for r in d_slide.part.rels.values() if r.reltype == RT.SLIDE_LAYOUT)
    d_slide.part.drop_rel(rid)
    d_slide.part.relate_to(layout.part, RT.SLIDE_LAYOUT)


def put_shape(s_slide, s_el, d_slide, d_el=None, after=None) -> None:
    """A copy of src's shape over d_el, or after dst shape `after` (None: first in the shape tree)."""
    new = copy.deepcopy(s_el)
    carry_rels(s_slide.part, d_slide.part, new)
    if d_el is not None:
        d_el.addprevious(new)
        d_el.getparent().remove(d_el)
    elif after is not None:
        after.addnext(new)
    else:
        tree = d_slide._element.cSld.spTree
        fixed = [c for c in children(tree) if local(c) in ("nvGrpSpPr", "grpSpPr")]
        (fixed[-1].addnext(new) if fixed else tree.insert(0, new))


def _xfrm(el):
    """A shape's position and size element (None: inherited from its layout)."""
    if local(el) == "graphicFrame":
        return child(el, "xfrm")
    props = next((c for c in children(el) if local(c) in ("spPr", "grpSpPr")), None)
    return child(props, "xfrm") if props is not None else None


def put_xfrm(s_el, d_el) -> None:
    s_x, d_x = _xfrm(s_el), _xfrm(d_el)
    if d_x is not None:
        if s_x is not None:
            d_x.addprevious(copy.deepcopy(s_x))
        d_x.getparent().remove(d_x)
    elif s_x is not None:
        if local(d_el) == "graphicFrame":
            insert_ordered(d_el, copy.deepcopy(s_x), ["nvGraphicFramePr", "xfrm", "graphic", "extLst"])
        else:
            props = next(c for c in children(d_el) if local(c) in ("spPr", "grpSpPr"))
            props.insert(0, copy.deepcopy(s_x))


def _format_facts(el):
    """A shape's own fill, line and geometry (its properties less position and size)."""
    props = next((c for c in children(el) if local(c) in ("spPr", "grpSpPr")), None)
    return tuple(canon(c) for c in children(props) if local(c) != "xfrm") if props is not None else ()


def put_format(s_el, d_el) -> None:
    s_pr = next((c for c in children(s_el) if local(c) in ("spPr", "grpSpPr")), None)
    d_pr = next((c for c in children(d_el) if local(c) in ("spPr", "grpSpPr")), None)
    if d_pr is None:
        raise ValueError("the shape has no properties to format")
    for c in children(d_pr):
        if local(c) != "xfrm":
            d_pr.remove(c)
    for c in children(s_pr) if s_pr is not None else []:
        if local(c) != "xfrm":
            d_pr.append(copy.deepcopy(c))


def put_body(s_el, d_el) -> None:
    """The whole text body (text and formatting) of src's shape."""
    s_b, d_b = _body(s_el), _body(d_el)
    if s_b is None or d_b is None:
        raise ValueError("a shape without text")
    d_b.addprevious(copy.deepcopy(s_b))
    d_b.getparent().remove(d_b)


def _text_format(el) -> tuple:
    body = _body(el)
    if body is None:
        return ()
    facts = [canon(c) for c in children(body) if local(c) in ("bodyPr", "lstStyle")]
    for p in children(body, "p"):
        facts += [canon(c, skip=tuple(NOISE)) for c in children(p) if local(c) in ("pPr", "endParaRPr")]
        facts.append("|")
    return tuple(facts)


def put_text_format(s_el, d_el) -> None:
    s_b, d_b = _body(s_el), _body(d_el)
    for tag in ("bodyPr", "lstStyle"):
        old, new = child(d_b, tag), child(s_b, tag)
        if new is not None:
            insert_ordered(d_b, copy.deepcopy(new), ["bodyPr", "lstStyle", "p"])
        if old is not None:
            d_b.remove(old)
    for s_p, d_p in zip(children(s_b, "p"), children(d_b, "p"), strict=True):
        for tag, first in (("pPr", True), ("endParaRPr", False)):
            old, new = child(d_p, tag), child(s_p, tag)
            if old is not None:
                d_p.remove(old)
            if new is not None:
                (d_p.insert(0, copy.deepcopy(new)) if first else d_p.append(copy.deepcopy(new)))


def _run_facts(run, aspect: str):
    pr = child(run, "rPr")
    if pr is None:
        return None if aspect in RUN_ATTRS else ()
    if aspect in RUN_ATTRS:
        return pr.get(RUN_ATTRS[aspect])
    return tuple(canon(c) for c in children(pr) if local(c) in RUN_CHILDREN[aspect])


def put_run_aspect(s_run, d_run, aspect: str) -> None:
    from lxml import etree

    s_pr, d_pr = child(s_run, "rPr"), child(d_run, "rPr")
    if d_pr is None:
        d_pr = etree.Element(qa("rPr"))
        d_run.insert(0, d_pr)
    if aspect in RUN_ATTRS:
        name = RUN_ATTRS[aspect]
        value = s_pr.get(name) if s_pr is not None else None
        d_pr.attrib.pop(name, None)
        if value is not None:
            d_pr.set(name, value)
        return
    for c in children(d_pr):
        if local(c) in RUN_CHILDREN[aspect]:
            d_pr.remove(c)
    for c in children(s_pr) if s_pr is not None else []:
        if local(c) in RUN_CHILDREN[aspect]:
            insert_ordered(d_pr, copy.deepcopy(c), RPR_ORDER)


# --- finding the units --------------------------------------------------------------------------------


class _Plan(OfficePlan):
    load = staticmethod(_source)

    def __init__(self, rel: str, initial: Path, golden: Path):
        super().__init__(rel, initial, golden)  # touched: golden slides some unit changes
        self.i, self.g = _source(initial), _source(golden)
        self.islides, self.gslides = list(self.i.slides), list(self.g.slides)
        self.pairs = match_slides(self.islides, self.gslides)  # golden -> initial

    def find(self) -> list[Unit]:
        self._slides()
        for j, i in sorted(self.pairs.items()):
            self._slide(i, j)
        self.units += property_units(
            "pptx", self.rel, self.initial, self.golden, Package(self.initial), Package(self.golden)
        )
        for unit, inner in self.containers:
            if len(inner) > 1 and not any(id(u) not in inner for u in self.units):  # parts, nothing else
                self.units.remove(unit)
        return self.units

    def _name(self, slide) -> str:
        return short(slide_title(slide) or "untitled", 40)

    def _slides(self) -> None:
        g_of = {i: j for j, i in self.pairs.items()}
        for j, slide in enumerate(self.gslides):
            if j in self.pairs:
                continue
            after = preceding(list(range(len(self.gslides))), j, lambda x: x in self.pairs)
            start = len(self.units)

            def apply(dst, src, j=j, after=after, shapes=None, notes=True):
                position = self.pairs[after] + 1 if after is not None else 0
                copy_slide(src, j, dst, position, shapes, notes)

            unit = self.unit(
                "pptx.slide.added",
                f"slide {j + 1} {self._name(slide)} added",
                lambda dst, src, j=j: remove_slide(dst, j),
                apply,
                j,
            )
            for n, el in enumerate(shapes_of(slide)):
                text = short(" ".join(" ".join(shape_text(el)).split()), 40)

                def revert(dst, src, j=j, n=n):
                    el = shapes_of(dst.slides[j])[n]
                    el.getparent().remove(el)

                self.unit(
                    "pptx.slide.shape",
                    f"slide {j + 1} (added) shape {n + 1} {text}",
                    revert,
                    lambda dst, src, n=n, apply=apply: apply(dst, src, shapes={n}, notes=False),
                    j,
                )
            if notes_text(slide):
                self.unit(
                    "pptx.notes",
                    f"slide {j + 1} (added) speaker notes",
                    lambda dst, src, j=j: _clear_notes(dst.slides[j]),
                    lambda dst, src, apply=apply: apply(dst, src, shapes=set(), notes=True),
                    j,
                )
            self.containers.append((unit, {id(u) for u in self.units[start:]}))
        for i, slide in enumerate(self.islides):
            if i in g_of:
                continue
            after = preceding(list(range(len(self.islides))), i, lambda x: x in g_of)

            def revert(dst, src, i=i, after=after):
                copy_slide(src, i, dst, g_of[after] + 1 if after is not None else 0)

            self.unit(
                "pptx.slide.removed",
                f"slide {self._name(slide)} deleted",
                revert,
                lambda dst, src, i=i: remove_slide(dst, i),
            )
        matched_i = sorted(g_of)
        for i in moved_items(matched_i, [self.pairs[j] for j in sorted(self.pairs)]):
            j = g_of[i]

            def revert(dst, src, i=i, j=j):
                after = preceding(matched_i, i, lambda x: True)
                move_slide(dst, j, g_of[after] if after is not None else None)

            def apply(dst, src, i=i, j=j):
                after = preceding(sorted(self.pairs), j, lambda x: True)
                move_slide(dst, i, self.pairs[after] if after is not None else None)

            self.unit(
                "pptx.slide.moved",
                f"slide {self._name(self.gslides[j])} moved to position {j + 1}",
                revert,
                apply,
                j,
            )

    def _slide(self, i: int, j: int) -> None:
        a, b = self.islides[i], self.gslides[j]
        where = f"slide {j + 1} {self._name(b)}"
        if a.slide_layout.name != b.slide_layout.name:
            self.unit(
                "pptx.slide.layout",
                f"{where} layout {a.slide_layout.name!r} -> {b.slide_layout.name!r}",
                lambda dst, src: put_layout(src.slides[i], dst, dst.slides[j]),
                lambda dst, src: put_layout(src.slides[j], dst, dst.slides[i]),
                j,
            )
        if notes_text(a) != notes_text(b):
            self.unit(
                "pptx.notes",
                f"{where} speaker notes {short(notes_text(a))} -> {short(notes_text(b))}",
                lambda dst, src: put_notes(src.slides[i], dst.slides[j]),
                lambda dst, src: put_notes(src.slides[j], dst.slides[i]),
                j,
            )
        sa, sb = shapes_of(a), shapes_of(b)
        pairs = match_shapes(sa, sb)
        back = {n: m for m, n in pairs.items()}
        for m, el in enumerate(sb):
            if m in pairs:
                self._shape(i, j, pairs[m], m)
                continue
            after = preceding(list(range(len(sb))), m, lambda x: x in pairs)

            def apply(dst, src, m=m, after=after):
                d_slide = dst.slides[i]
                anchor = shapes_of(d_slide)[pairs[after]] if after is not None else None
                put_shape(src.slides[j], shapes_of(src.slides[j])[m], d_slide, after=anchor)

            self.unit(
                "pptx.shape.added",
                f"{where} shape {short(' '.join(shape_text(el)), 40)} added",
                lambda dst, src, m=m: _drop(shapes_of(dst.slides[j])[m]),
                apply,
                j,
            )
        for n, el in enumerate(sa):
            if n in back:
                continue
            after = preceding(list(range(len(sa))), n, lambda x: x in back)

            def revert(dst, src, n=n, after=after):
                d_slide = dst.slides[j]
                anchor = shapes_of(d_slide)[back[after]] if after is not None else None
                put_shape(src.slides[i], shapes_of(src.slides[i])[n], d_slide, after=anchor)

            self.unit(
                "pptx.shape.removed",
                f"{where} shape {short(' '.join(shape_text(el)), 40)} deleted",
                revert,
                lambda dst, src, n=n: _drop(shapes_of(dst.slides[i])[n]),
                j,
            )

    def _shape(self, i: int, j: int, n: int, m: int) -> None:
        """Units of shape n of initial slide i, shape m of golden slide j."""
        a, b = shapes_of(self.islides[i])[n], shapes_of(self.gslides[j])[m]
        if same(a, b):
            return
        label = "title" if _is_title(b) else f"shape {m + 1}"
        where = f"slide {j + 1} {self._name(self.gslides[j])} {label}"

        def pair(fn):
            return (
                lambda dst, src: fn(shapes_of(src.slides[i])[n], shapes_of(dst.slides[j])[m]),
                lambda dst, src: fn(shapes_of(src.slides[j])[m], shapes_of(dst.slides[i])[n]),
            )

        xa, xb = _xfrm(a), _xfrm(b)
        if (xa is None) != (xb is None) or (xa is not None and not same(xa, xb)):
            self.unit("pptx.shape.geometry", f"{where} position/size", *pair(put_xfrm), j)
        if _format_facts(a) != _format_facts(b):
            self.unit("pptx.shape.format", f"{where} fill/line", *pair(put_format), j)
        if _body(a) is None and _body(b) is None:
            return
        if _body(a) is None or _body(b) is None:
            self.unit("pptx.shape.text", f"{where} text", *pair(put_body), j)
            return
        ta, tb = shape_text(a), shape_text(b)
        if ta != tb:
            self.unit(
                "pptx.shape.text",
                f"{where} text {short(' | '.join(ta))} -> {short(' | '.join(tb))}",
                *pair(put_body),
                j,
            )
            return
        ra, rb = _runs(a), _runs(b)
        if [_para_text_of(r) for r in ra] != [_para_text_of(r) for r in rb]:
            self.unit("pptx.shape.runs", f"{where} run formatting", *pair(put_body), j)
        else:
            for aspect in [*RUN_ATTRS, *RUN_CHILDREN]:
                if [_run_facts(r, aspect) for r in ra] == [_run_facts(r, aspect) for r in rb]:
                    continue

                def put(s_el, d_el, aspect=aspect):
                    for s_run, d_run in zip(_runs(s_el), _runs(d_el), strict=True):
                        put_run_aspect(s_run, d_run, aspect)

                self.unit(f"pptx.run.{aspect}", f"{where} {aspect} of its text", *pair(put), j)
            if [canon(r, skip=tuple(NOISE)) for r in _plain_runs(a)] != [
                canon(r, skip=tuple(NOISE)) for r in _plain_runs(b)
            ]:
                self.unit("pptx.shape.runs", f"{where} other run formatting", *pair(put_body), j)
        if _text_format(a) != _text_format(b):
            self.unit("pptx.text.format", f"{where} text box and paragraph format", *pair(put_text_format), j)


def _para_text_of(run) -> str:
    return "".join(t.text or "" for t in run.iter(qa("t")))


def _plain_runs(el) -> list:
    """The runs less the aspects that have units of their own (what else their formatting says)."""
    out = []
    for run in _runs(el):
        run = copy.deepcopy(run)
        pr = child(run, "rPr")
        if pr is not None:
            for name in RUN_ATTRS.values():
                pr.attrib.pop(name, None)
            for c in children(pr):
                if any(local(c) in tags for tags in RUN_CHILDREN.values()):
                    pr.remove(c)
            if not children(pr) and set(pr.attrib) <= NOISE:
                run.remove(pr)
        out.append(run)
    return out


def _drop(el) -> None:
    el.getparent().remove(el)


def _clear_notes(slide) -> None:
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        slide.notes_slide.notes_text_frame.text = ""


@cache
def _plan(rel: str, initial: str, golden: str) -> _Plan:
    plan = _Plan(rel, Path(initial), Path(golden))
    plan.find()
    return plan


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    return _plan(rel, str(initial), str(golden)).units


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
