"""Ops on one cell: its value (dropping every stale cached formula result) and one aspect of its
style, copied with the style records it needs into the target's stylesheet."""

from __future__ import annotations

import copy

from mutator.ooxml import child, children, insert_ordered, local, q
from mutator.sheets.book import FONT_TAGS, Book, M, _cell, _prune


def put_value(book: Book, sheet: str, coord: str, value) -> None:
    """Make `sheet`!`coord` hold `value` (as openpyxl reads it: a formula string, text, number,
    bool, date or an ArrayFormula), keeping the cell's style."""
    import datetime

    from lxml import etree
    from openpyxl.utils.datetime import to_excel

    root = book.sheet(sheet, edit=True)
    _unshare(root)
    c = _cell(root, coord, create=value is not None)
    if c is None:
        return
    for el in children(c):
        if local(el) in ("f", "v", "is"):
            c.remove(el)
    for attr in ("t", "cm", "vm"):
        c.attrib.pop(attr, None)
    book.formulas_changed = True
    new = []
    text = getattr(value, "text", None)
    if text is not None:  # an array formula
        f = etree.Element(q(M, "f"), t="array", ref=str(getattr(value, "ref", coord)))
        f.text = text[1:] if text.startswith("=") else text
        new.append(f)
    elif isinstance(value, str) and value.startswith("=") and len(value) > 1:
        f = etree.Element(q(M, "f"))
        f.text = value[1:]
        new.append(f)
    elif isinstance(value, str):
        c.set("t", "inlineStr")
        inline = etree.Element(q(M, "is"))
        t = etree.SubElement(inline, q(M, "t"))
        t.text = value
        if value != value.strip():
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        new.append(inline)
    elif isinstance(value, bool):
        c.set("t", "b")
        new.append(_v("1" if value else "0"))
    elif isinstance(value, int | float):
        new.append(_v(repr(value) if isinstance(value, float) else str(value)))
    elif isinstance(value, datetime.date | datetime.time | datetime.timedelta):
        new.append(_v(repr(float(to_excel(value, book.epoch())))))
    elif value is not None:
        raise ValueError(f"cannot write a {type(value).__name__} into a cell")
    for el in reversed(new):
        c.insert(0, el)
    _prune(c)


def _unshare(root) -> None:
    """Write every shared formula of the sheet out in full (LibreOffice shares a filled-down
    formula; a cell edit must not orphan the cells that borrow it)."""
    from openpyxl.formula.translate import Translator

    shared = [f for f in root.iter(q(M, "f")) if f.get("t") == "shared"]
    masters = {f.get("si"): (f.text, f.getparent().get("r")) for f in shared if f.text and f.get("ref")}
    for f in shared:
        text, origin = masters.get(f.get("si"), (None, None))
        if text is None:
            continue
        if f.getparent().get("r") != origin:
            f.text = Translator("=" + text, origin=origin).translate_formula(f.getparent().get("r"))[1:]
        for attr in ("t", "si", "ref"):
            f.attrib.pop(attr, None)


def _v(text: str):
    from lxml import etree

    v = etree.Element(q(M, "v"))
    v.text = text
    return v


def put_style(src: Book, src_sheet: str | None, dst: Book, dst_sheet: str, coord: str, aspect: str) -> None:
    """Give `dst_sheet`!`coord` the `aspect` of the source cell's style (src_sheet None: a blank cell)."""
    s_cell = _cell(src.sheet(src_sheet), coord, create=False) if src_sheet else None
    s_xf = src.xf(s_cell)
    root = dst.sheet(dst_sheet, edit=True)
    d_cell = _cell(root, coord, create=True)
    xf = copy.deepcopy(dst.xf(d_cell))
    if aspect == "number_format":
        xf.set("numFmtId", str(dst.numfmt_id(src.numfmt_code(int(s_xf.get("numFmtId", "0"))))))
        xf.set("applyNumberFormat", "1")
    elif aspect.startswith("font."):
        tags = FONT_TAGS[aspect[5:]]
        font = copy.deepcopy(dst.style_item("fonts", int(xf.get("fontId", "0"))))
        if font is None:
            from lxml import etree

            font = etree.Element(q(M, "font"))
        for el in children(font):
            if local(el) in tags:
                font.remove(el)
        s_font = src.style_item("fonts", int(s_xf.get("fontId", "0")))
        for el in children(s_font) if s_font is not None else []:
            if local(el) in tags:
                font.append(copy.deepcopy(el))
        xf.set("fontId", str(dst.style_add("fonts", font)))
        xf.set("applyFont", "1")
    elif aspect in ("fill", "border"):
        plural = aspect + "s"
        item = src.style_item(plural, int(s_xf.get(aspect + "Id", "0")))
        if item is None:
            raise ValueError(f"the source cell's {aspect} is missing")
        xf.set(aspect + "Id", str(dst.style_add(plural, copy.deepcopy(item))))
        xf.set("apply" + aspect.title(), "1")
    elif aspect in ("alignment", "protection"):
        for el in children(xf, aspect):
            xf.remove(el)
        found = child(s_xf, aspect)
        if found is not None:
            insert_ordered(xf, copy.deepcopy(found), ["alignment", "protection", "extLst"])
        xf.set("apply" + aspect.title(), "1" if found is not None else "0")
    else:
        raise ValueError(f"unknown style aspect {aspect}")
    d_cell.set("s", str(dst.style_add("cellXfs", xf)))
    _prune(d_cell)


def import_xf(src: Book, dst: Book, index: int, memo: dict) -> int:
    """A copy of the source's cell format `index` (font, fill, border, number format) in `dst`."""
    if index in memo:
        return memo[index]
    xf = copy.deepcopy(src.style_item("cellXfs", index))
    if xf is None:
        memo[index] = 0
        return 0
    xf.set("numFmtId", str(dst.numfmt_id(src.numfmt_code(int(xf.get("numFmtId", "0"))))))
    for name in ("font", "fill", "border"):
        item = src.style_item(name + "s", int(xf.get(name + "Id", "0")))
        if item is not None:
            xf.set(name + "Id", str(dst.style_add(name + "s", copy.deepcopy(item))))
    xf.set("xfId", "0")
    memo[index] = dst.style_add("cellXfs", xf)
    return memo[index]


def import_dxf(src: Book, dst: Book, index: str | None) -> str | None:
    if index is None:
        return None
    item = src.style_item("dxfs", int(index))
    return str(dst.style_add("dxfs", copy.deepcopy(item))) if item is not None else None
