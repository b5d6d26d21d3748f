"""Ops that copy elements between documents: blocks and their content (with the styles and list
definitions they need), paragraph and run properties, sections, headers and footers, table
formats, style definitions and document defaults."""

from __future__ import annotations

import copy

from mutator.docs.blocks import MARGINS, SECT_ORDER, R, q
from mutator.ooxml import canon, child, children, insert_ordered, local

# --- copying elements between documents ------------------------------------------------------------------


def _styles_el(doc):
    return doc.styles.element


def _style(doc, style_id: str):
    return next((s for s in children(_styles_el(doc), "style") if s.get(q("styleId")) == style_id), None)


def bring_along(src, dst, el) -> None:
    """What `el` (copied from src into dst) needs of src: the styles and list definitions it names.
    Relationship references (images, links) are not carried: raise."""
    for node in el.iter():
        if not isinstance(node.tag, str):
            continue
        if any(k.startswith(f"{{{R}}}") for k in node.attrib):
            raise ValueError("the block refers to another part (an image or a link): not copied")
    wanted = {
        v.get(q("val"))
        for v in el.iter(q("pStyle"), q("rStyle"), q("tblStyle"))
        if v.get(q("val")) and _style(dst, v.get(q("val"))) is None
    }
    while wanted:
        style_id = wanted.pop()
        found = _style(src, style_id)
        if found is None or _style(dst, style_id) is not None:
            continue
        _styles_el(dst).append(copy.deepcopy(found))
        for ref in ("basedOn", "next", "link"):
            linked = child(found, ref)
            if linked is not None and _style(dst, linked.get(q("val"))) is None:
                wanted.add(linked.get(q("val")))
    for num_id in {n.get(q("val")) for n in el.iter(q("numId")) if n.get(q("val")) not in (None, "0")}:
        _bring_numbering(src, dst, num_id)


def _numbering(doc):
    """The list definitions (numbering.xml), None when the document has none (python-docx's
    numbering_part would add a part)."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    try:
        return doc.part.part_related_by(RT.NUMBERING).element
    except KeyError:
        return None


def _bring_numbering(src, dst, num_id: str) -> None:
    s_num, d_num = _numbering(src), _numbering(dst)
    if s_num is None:
        return
    if d_num is None:
        raise ValueError("the document has no list definitions to extend")
    if any(n.get(q("numId")) == num_id for n in children(d_num, "num")):
        return
    num = next((n for n in children(s_num, "num") if n.get(q("numId")) == num_id), None)
    if num is None:
        return
    abstract_id = child(num, "abstractNumId").get(q("val"))
    abstracts = {a.get(q("abstractNumId")) for a in children(d_num, "abstractNum")}
    if abstract_id not in abstracts:
        found = next(
            (a for a in children(s_num, "abstractNum") if a.get(q("abstractNumId")) == abstract_id), None
        )
        if found is not None:
            nums = children(d_num, "num")
            (nums[0].addprevious(copy.deepcopy(found)) if nums else d_num.append(copy.deepcopy(found)))
    insert_ordered(d_num, copy.deepcopy(num), ["abstractNum", "num", "numIdMacAtCleanup"])


def put_block(src, src_el, dst, dst_el=None, after=None) -> None:
    """Put a copy of src's block over dst_el, or after dst block `after` (None: first in the body)."""
    new = copy.deepcopy(src_el)
    bring_along(src, dst, new)
    for node in new.iter(q("sectPr")):  # a copied paragraph never brings a section break
        node.getparent().remove(node)
    if dst_el is not None:
        dst_el.addprevious(new)
        dst_el.getparent().remove(dst_el)
    elif after is not None:
        after.addnext(new)
    else:
        dst.element.body.insert(0, new)


def put_content(src, s_el, dst, d_el, keep: str) -> None:
    """Replace d_el's children but its `keep` properties (pPr, tcPr) by copies of s_el's."""
    for el in children(d_el):
        if local(el) != keep:
            d_el.remove(el)
    for el in children(s_el):
        if local(el) != keep:
            new = copy.deepcopy(el)
            bring_along(src, dst, new)
            d_el.append(new)


def _props(el, name: str, create: bool = False):
    """The pPr / rPr / tblPr of an element (created first among its children when asked)."""
    from lxml import etree

    found = child(el, name)
    if found is None and create:
        found = etree.Element(q(name))
        el.insert(0, found)
    return found


def put_props(src, s_el, dst, d_el, name: str, tags, order: list[str], invert: bool = False) -> None:
    """Make the `tags` children of d_el's `name` properties what they are in s_el's (`invert`: all
    children but those)."""
    s_pr, d_pr = _props(s_el, name), _props(d_el, name, create=True)

    def chosen(el):
        return (local(el) not in tags) if invert else (local(el) in tags)

    for el in children(d_pr):
        if chosen(el):
            d_pr.remove(el)
    for el in children(s_pr) if s_pr is not None else []:
        if chosen(el):
            new = copy.deepcopy(el)
            bring_along(src, dst, new)
            insert_ordered(d_pr, new, order)
    if not children(d_pr) and not d_pr.attrib:
        d_el.remove(d_pr)


def _pr_facts(el, name: str, tags, invert: bool = False):
    pr = _props(el, name)
    kids = (
        [c for c in children(pr) if (local(c) not in tags if invert else local(c) in tags)]
        if pr is not None
        else []
    )
    return tuple(canon(c) for c in kids)


# --- sections -------------------------------------------------------------------------------------------


def _sect(doc, k: int):
    return doc.sections[k]._sectPr


def put_sect(src_doc, k_src: int, dst_doc, k_dst: int, tag: str, attrs: tuple | None) -> None:
    """Make sectPr's `tag` (or only its `attrs`) in dst's section k what it is in src's."""
    s, d = _sect(src_doc, k_src), _sect(dst_doc, k_dst)
    s_el, d_el = child(s, tag), child(d, tag)
    if attrs is None:
        if d_el is not None:
            d.remove(d_el)
        if s_el is not None:
            insert_ordered(d, copy.deepcopy(s_el), SECT_ORDER)
        return
    if d_el is None:
        from lxml import etree

        d_el = insert_ordered(d, etree.Element(q(tag)), SECT_ORDER)
    for attr in attrs:
        value = s_el.get(q(attr)) if s_el is not None else None
        if value is None:
            d_el.attrib.pop(q(attr), None)
        else:
            d_el.set(q(attr), value)


def _sect_facts(sect) -> dict:
    facts = {}
    size = child(sect, "pgSz")
    facts[("pgSz", None)] = canon(size) if size is not None else None
    margins = child(sect, "pgMar")
    for side in MARGINS:
        value = margins.get(q(side)) if margins is not None else None
        facts[("pgMar", (side,))] = (
            int(value) if value not in (None, "") and value.lstrip("-").isdigit() else value
        )
    for tag in ("cols", "type"):
        el = child(sect, tag)
        facts[(tag, None)] = canon(el) if el is not None else None
    return facts


def _hf_facts(section, attr: str):
    hf = getattr(section, attr)
    return canon(hf._definition.element) if hf._has_definition else None


def put_hf(src_doc, k_src: int, dst_doc, k_dst: int, attr: str) -> None:
    s_hf, d_hf = getattr(src_doc.sections[k_src], attr), getattr(dst_doc.sections[k_dst], attr)
    if not s_hf._has_definition:
        d_hf.is_linked_to_previous = True
        return
    if not d_hf._has_definition:
        d_hf.is_linked_to_previous = False
    el = d_hf._definition.element
    for old in children(el):
        el.remove(old)
    for new in children(s_hf._definition.element):
        new = copy.deepcopy(new)
        bring_along(src_doc, dst_doc, new)
        el.append(new)


def _table_format(tbl) -> tuple:
    parts = [child(tbl, "tblPr"), child(tbl, "tblGrid")] + [child(tr, "trPr") for tr in children(tbl, "tr")]
    return tuple(canon(p) if p is not None else None for p in parts)


def put_table_format(src, s_tbl, dst, d_tbl) -> None:
    """The table's properties, column grid and row properties of src's table (same shape)."""
    for tag in ("tblPr", "tblGrid"):
        old, new = child(d_tbl, tag), child(s_tbl, tag)
        if new is not None:
            new = copy.deepcopy(new)
            bring_along(src, dst, new)
            insert_ordered(d_tbl, new, ["tblPr", "tblGrid", "tr"])
        if old is not None:
            d_tbl.remove(old)
    for s_tr, d_tr in zip(children(s_tbl, "tr"), children(d_tbl, "tr"), strict=True):
        for old in children(d_tr, "trPr"):
            d_tr.remove(old)
        new = child(s_tr, "trPr")
        if new is not None:
            insert_ordered(d_tr, copy.deepcopy(new), ["tblPrEx", "trPr", "tc"])


def _put_style(src, dst, style_id: str) -> None:
    old, new = _style(dst, style_id), _style(src, style_id)
    if new is not None:
        new = copy.deepcopy(new)
        (old.addprevious(new) if old is not None else _styles_el(dst).append(new))
    if old is not None:
        old.getparent().remove(old)


def _put_defaults(dst, src) -> None:
    old, new = child(_styles_el(dst), "docDefaults"), child(_styles_el(src), "docDefaults")
    if new is not None:
        (
            old.addprevious(copy.deepcopy(new))
            if old is not None
            else _styles_el(dst).insert(0, copy.deepcopy(new))
        )
    if old is not None:
        old.getparent().remove(old)
