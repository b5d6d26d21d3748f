"""Ops that copy between decks: slides (with the parts they refer to), their layout and notes,
shapes, position and size, fill and line, text bodies, text-box formats and run aspects."""

from __future__ import annotations

import copy
import io

from mutator.decks.slides import (
    NOISE,
    RPR_ORDER,
    RUN_ATTRS,
    RUN_CHILDREN,
    R,
    _body,
    notes_text,
    qa,
    shapes_of,
)
from mutator.ooxml import canon, child, children, insert_ordered, local

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
