"""Ops on charts: a sheet's charts through its drawing, a chart's parts (titles, axis titles,
series, categories, type), and adding or removing a whole chart."""

from __future__ import annotations

import copy
import posixpath

from mutator.ooxml import canon, child, children, insert_ordered, local, q
from mutator.sheets.book import (
    ANCHORS,
    AXES,
    AXIS_ORDER,
    CHART,
    CHART_ORDER,
    DRAWING,
    SER_ORDER,
    WS_ORDER,
    XDR,
    A,
    Book,
    C,
    M,
    R,
)

# --- charts ------------------------------------------------------------------------------------------


def _drawing(book: Book, sheet: str):
    part = book.sheet_part(sheet)
    rel = next((r for r in book.rels(part) if r.get("Type") == DRAWING), None)
    return (rel.get("Id"), book.target(part, rel)) if rel is not None else (None, None)


def charts_of(book: Book, sheet: str) -> list[tuple]:
    """(anchor element, chart part) of each chart on `sheet`, in drawing order."""
    _, drawing = _drawing(book, sheet)
    if drawing is None or not book.has(drawing):
        return []
    found = []
    for anchor in children(book.xml(drawing)):
        if local(anchor) not in ANCHORS:
            continue
        ref = next(anchor.iter(q(C, "chart")), None)
        rel = book.rel(drawing, ref.get(q(R, "id"))) if ref is not None else None
        if rel is not None and book.target(drawing, rel) and book.has(book.target(drawing, rel)):
            found.append((anchor, book.target(drawing, rel)))
    return found


def chart_parts(root) -> dict:
    """The removable parts of a chart: key -> element (the title, each axis title, each series, and
    each series' categories and name)."""
    chart = child(root, "chart")
    found = {}
    if chart is None:
        return found
    if child(chart, "title") is not None:
        found[("title",)] = child(chart, "title")
    plot = child(chart, "plotArea")
    if plot is None:
        return found
    axes = [el for el in children(plot) if local(el) in AXES]
    for i, axis in enumerate(axes):
        if child(axis, "title") is not None:
            found[("axis_title", i)] = child(axis, "title")
    for k, ser in enumerate(
        el for kind in children(plot) if local(kind).endswith("Chart") for el in children(kind, "ser")
    ):
        found[("series", k)] = ser
        for part in ("cat", "xVal"):
            if child(ser, part) is not None:
                found[("categories", k)] = child(ser, part)
    return found


def _chart_kinds(root) -> list:
    chart = child(root, "chart")
    plot = child(chart, "plotArea") if chart is not None else None
    return [el for el in children(plot) if local(el).endswith("Chart")] if plot is not None else []


def _kind_facts(kind) -> tuple:
    return (local(kind), tuple(canon(el) for el in children(kind) if local(el) not in ("ser", "axId")))


def remove_chart_part(root, key: tuple) -> None:
    el = chart_parts(root).get(key)
    if el is None:
        return
    parent = el.getparent()
    parent.remove(el)
    if key == ("title",):
        from lxml import etree

        deleted = child(parent, "autoTitleDeleted")
        if deleted is None:
            deleted = insert_ordered(parent, etree.Element(q(C, "autoTitleDeleted")), CHART_ORDER)
        deleted.set("val", "1")


def put_chart_part(src_root, dst_root, key: tuple) -> None:
    """Make part `key` of the dst chart what it is in the src chart (changed charts)."""
    wanted = chart_parts(src_root).get(key)
    found = chart_parts(dst_root).get(key)
    if wanted is None:
        remove_chart_part(dst_root, key)
        return
    new = copy.deepcopy(wanted)
    if found is not None:
        found.addprevious(new)
        found.getparent().remove(found)
        return
    chart = child(dst_root, "chart")
    if key[0] == "title":
        insert_ordered(chart, new, CHART_ORDER)
        deleted = child(chart, "autoTitleDeleted")
        if deleted is not None:
            deleted.set("val", "0")
    elif key[0] == "axis_title":
        axes = [el for el in children(child(chart, "plotArea")) if local(el) in AXES]
        insert_ordered(axes[key[1]], new, AXIS_ORDER)
    elif key[0] == "series":
        kinds = _chart_kinds(dst_root)
        if not kinds:
            raise ValueError("the chart has no plot to hold a series")
        kind = kinds[-1]
        last = children(kind, "ser")
        (
            last[-1].addnext(new)
            if last
            else insert_ordered(kind, new, ["barDir", "grouping", "varyColors", "ser"])
        )
    else:
        series = [el for kind in _chart_kinds(dst_root) for el in children(kind, "ser")]
        insert_ordered(series[key[1]], new, SER_ORDER)


def put_chart_type(src_root, dst_root) -> None:
    """The plot kind and its settings (bar direction, grouping, gap, ...) of src, dst's series kept."""
    s_kinds, d_kinds = _chart_kinds(src_root), _chart_kinds(dst_root)
    if not s_kinds or not d_kinds:
        raise ValueError("a chart without a plot")
    new = copy.deepcopy(s_kinds[0])
    for el in children(new, "ser") + children(new, "axId"):
        new.remove(el)
    series = [el for kind in d_kinds for el in children(kind, "ser")]
    axes = children(d_kinds[0], "axId")
    order = ["barDir", "grouping", "varyColors", "ser", "dLbls", "gapWidth", "overlap", "serLines", "axId"]
    for el in series + axes:
        insert_ordered(new, el, order + ["shape", "extLst"])
    d_kinds[0].addprevious(new)
    for kind in d_kinds:
        kind.getparent().remove(kind)


def add_chart(src: Book, src_sheet: str, index: int, dst: Book, dst_sheet: str) -> str:
    """Copy chart `index` of src's sheet (its anchor and its parts) onto dst's sheet; its part name."""
    from lxml import etree

    anchor, chart = charts_of(src, src_sheet)[index]
    rid, drawing = _drawing(dst, dst_sheet)
    if drawing is None:
        part = dst.sheet_part(dst_sheet)
        drawing = dst.fresh(posixpath.join(posixpath.dirname(dst.wb), "drawings/drawing1.xml"))
        dst.put_xml(drawing, etree.Element(q(XDR, "wsDr"), nsmap={"xdr": XDR, "a": A}))
        dst.set_content_type(drawing, "application/vnd.openxmlformats-officedocument.drawing+xml")
        rid = dst.add_rel(part, DRAWING, drawing)
        el = etree.Element(q(M, "drawing"))
        el.set(q(R, "id"), rid)
        insert_ordered(dst.sheet(dst_sheet, edit=True), el, WS_ORDER)
    new_chart = dst.copy_part(src, chart, hint=posixpath.join(posixpath.dirname(dst.wb), "charts/chart1.xml"))
    chart_rid = dst.add_rel(drawing, CHART, new_chart)
    new = copy.deepcopy(anchor)
    next(new.iter(q(C, "chart"))).set(q(R, "id"), chart_rid)
    root = dst.xml(drawing, edit=True)
    ids = [int(x) for x in root.xpath("//@id") if str(x).isdigit()]
    for props in new.iter(q(XDR, "cNvPr")):
        props.set("id", str(max(ids, default=0) + 1))
    root.append(new)
    return new_chart


def remove_chart(book: Book, sheet: str, index: int) -> None:
    anchor, chart = charts_of(book, sheet)[index]
    rid, drawing = _drawing(book, sheet)
    ref = next(anchor.iter(q(C, "chart")))
    root = book.xml(drawing, edit=True)
    root.remove(anchor)
    book.drop_rel(drawing, ref.get(q(R, "id")))
    if not book.referrers(chart):
        book.remove_tree(chart)
    if not children(root):  # the sheet had no drawing before: take it away again
        sheet_root = book.sheet(sheet, edit=True)
        for el in children(sheet_root, "drawing"):
            if el.get(q(R, "id")) == rid:
                sheet_root.remove(el)
        book.drop_rel(book.sheet_part(sheet), rid)
        if not book.referrers(drawing):
            book.remove_tree(drawing)
