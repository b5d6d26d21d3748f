"""Ops on sheets and sheet features: add, remove, rename and move a sheet; frozen panes, keyed
features (validations, conditional formats, merges), the auto-filter, columns, rows, defined names."""

from __future__ import annotations

import copy
import posixpath

from mutator.ooxml import child, children, insert_ordered, local, preceding, q
from mutator.sheets.book import WB_ORDER, WORKSHEET, WS_ORDER, Book, M, R, _row
from mutator.sheets.cell_ops import import_dxf, import_xf

# --- sheets as a whole ------------------------------------------------------------------------------


def _blank_sheet():
    from lxml import etree

    root = etree.Element(q(M, "worksheet"), nsmap={None: M, "r": R})
    views = etree.SubElement(root, q(M, "sheetViews"))
    etree.SubElement(views, q(M, "sheetView"), workbookViewId="0")
    etree.SubElement(root, q(M, "sheetFormatPr"), defaultRowHeight="15")
    etree.SubElement(root, q(M, "sheetData"))
    etree.SubElement(
        root, q(M, "pageMargins"), left="0.75", right="0.75", top="1", bottom="1", header="0.5", footer="0.5"
    )
    return root


def _add_entry(dst: Book, name: str, root, after: str | None) -> str:
    """Register a worksheet part holding `root` as sheet `name`, right after sheet `after` (None: first)."""
    from lxml import etree

    part = dst.fresh(posixpath.join(posixpath.dirname(dst.wb), "worksheets/sheet1.xml"))
    dst.put_xml(part, root)
    dst.set_content_type(part, "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml")
    rid = dst.add_rel(dst.wb, WORKSHEET, part)
    sheets = child(dst.xml(dst.wb, edit=True), "sheets")
    ids = [int(e.get("sheetId", "0")) for e in children(sheets, "sheet")]
    entry = etree.Element(q(M, "sheet"), name=name, sheetId=str(max(ids, default=0) + 1))
    entry.set(q(R, "id"), rid)
    entries = children(sheets, "sheet")
    position = 0 if after is None else entries.index(dst.entry(after)) + 1
    old = [e.get("name") for e in entries]
    sheets.insert(position, entry) if entries else sheets.append(entry)
    _renumber(dst, old)
    return part


def _renumber(book: Book, old: list[str]) -> None:
    """After sheets were added, removed or moved: fix what refers to sheets by position (defined
    names' localSheetId, the active and first visible tab)."""
    root = book.xml(book.wb, edit=True)
    new = [e.get("name") for e in book.sheet_entries()]
    names = child(root, "definedNames")
    for dn in children(names, "definedName") if names is not None else []:
        local_id = dn.get("localSheetId")
        if local_id is None:
            continue
        was = old[int(local_id)] if int(local_id) < len(old) else None
        if was in new:
            dn.set("localSheetId", str(new.index(was)))
        else:
            names.remove(dn)
    if names is not None and not children(names):
        root.remove(names)
    views = child(root, "bookViews")
    for view in children(views) if views is not None else []:
        for attr in ("activeTab", "firstSheet"):
            at = int(view.get(attr, "0"))
            was = old[at] if at < len(old) else None
            view.set(attr, str(new.index(was) if was in new else 0))


def import_sheet(src: Book, name: str, dst: Book, as_name: str, after: str | None) -> None:
    """Copy sheet `name` of `src` into `dst` as `as_name`: its cells (strings inlined, formats copied
    into dst's stylesheet), features, and the parts it refers to (drawings, charts)."""
    from lxml import etree

    s_part = src.sheet_part(name)
    root = copy.deepcopy(src.xml(s_part))
    memo: dict = {}
    for c in root.iter(q(M, "c")):
        if c.get("s") not in (None, "0"):
            c.set("s", str(import_xf(src, dst, int(c.get("s")), memo)))
        if c.get("t") == "s":
            v = child(c, "v")
            si = src.shared(int(v.text))
            c.remove(v)
            inline = etree.SubElement(c, q(M, "is"))
            for el in children(si):
                if local(el) in ("t", "r"):
                    inline.append(copy.deepcopy(el))
            c.set("t", "inlineStr")
    for rule in root.iter(q(M, "cfRule")):
        if rule.get("dxfId") is not None:
            rule.set("dxfId", import_dxf(src, dst, rule.get("dxfId")) or "0")
    for view in root.iter(q(M, "sheetView")):
        view.attrib.pop("tabSelected", None)
    if src.rels(s_part) and any(r.get("Type") == R + "/table" for r in src.rels(s_part)):
        raise ValueError("sheets with tables are not copied")
    part = _add_entry(dst, as_name, root, after)
    dst.copy_rels(src, s_part, part)
    dst.formulas_changed = True


def remove_sheet(book: Book, name: str) -> None:
    if len(book.sheet_entries()) < 2:
        raise ValueError("a workbook keeps at least one sheet")
    old = [e.get("name") for e in book.sheet_entries()]
    entry = book.entry(name)
    part = book.sheet_part(name)
    entry.getparent().remove(entry)
    book.xml(book.wb, edit=True)
    book.drop_rel(book.wb, entry.get(q(R, "id")))
    book.remove_tree(part)
    _renumber(book, old)
    first = book.sheet_entries()[0]
    if book._entry_part(first):
        for view in book.sheet(first.get("name"), edit=True).iter(q(M, "sheetView")):
            view.set("tabSelected", "1")
            break
    book.formulas_changed = True


def rename_sheet(book: Book, old: str, new: str) -> None:
    book.entry(old).set("name", new)
    book.xml(book.wb, edit=True)


def move_sheet(book: Book, name: str, after: str | None) -> None:
    old = [e.get("name") for e in book.sheet_entries()]
    entry = book.entry(name)
    sheets = entry.getparent()
    sheets.remove(entry)
    if after is None:
        sheets.insert(0, entry)
    else:
        book.entry(after).addnext(entry)
    book.xml(book.wb, edit=True)
    _renumber(book, old)


def ensure_sheet(dst: Book, name: str, order: list[str], names_in_dst) -> None:
    """Give `dst` an empty sheet `name` when it has none, placed as in `order` (the other home's)."""
    if name in dst.sheet_names():
        return
    after = preceding(order, name, lambda x: names_in_dst(x) in dst.sheet_names())
    _add_entry(dst, name, _blank_sheet(), names_in_dst(after) if after else None)


# --- sheet features ----------------------------------------------------------------------------------


def _sqref(el) -> str:
    return " ".join(sorted((el.get("sqref") or el.get("ref") or "").split()))


def _pane(root):
    views = child(root, "sheetViews")
    view = child(views, "sheetView") if views is not None else None
    pane = child(view, "pane") if view is not None else None
    if pane is None:
        return None
    return (float(pane.get("xSplit", "0")), float(pane.get("ySplit", "0")), pane.get("state", "split"))


def put_pane(src_root, dst_root) -> None:
    from lxml import etree

    views = child(dst_root, "sheetViews")
    if views is None:
        views = insert_ordered(dst_root, etree.Element(q(M, "sheetViews")), WS_ORDER)
    view = child(views, "sheetView")
    if view is None:
        view = etree.SubElement(views, q(M, "sheetView"), workbookViewId="0")
    for el in children(view):
        if local(el) in ("pane", "selection", "pivotSelection"):
            view.remove(el)
    s_views = child(src_root, "sheetViews") if src_root is not None else None
    s_view = child(s_views, "sheetView") if s_views is not None else None
    for el in reversed(children(s_view) if s_view is not None else []):
        if local(el) in ("pane", "selection", "pivotSelection"):
            view.insert(0, copy.deepcopy(el))


def _keyed(root, container: str | None, tag: str) -> dict:
    holder = child(root, container) if container else root
    return {_sqref(el): el for el in children(holder, tag)} if holder is not None else {}


def put_keyed(
    src: Book | None, src_root, dst: Book, dst_root, container: str | None, tag: str, key: str
) -> None:
    """Make the `tag` element keyed `key` (its sqref or ref) in dst what it is in src (or absent)."""
    from lxml import etree

    holder = child(dst_root, container) if container else dst_root
    if holder is None:
        holder = insert_ordered(dst_root, etree.Element(q(M, container)), WS_ORDER)
    old = [el for el in children(holder, tag) if _sqref(el) == key]
    wanted = _keyed(src_root, container, tag).get(key) if src_root is not None else None
    new = copy.deepcopy(wanted) if wanted is not None else None
    if new is not None and tag == "conditionalFormatting":
        for rule in new.iter(q(M, "cfRule")):
            if rule.get("dxfId") is not None:
                rule.set("dxfId", import_dxf(src, dst, rule.get("dxfId")) or "0")
    if old and new is not None:
        old[0].addprevious(new)
    elif new is not None:
        (holder.append(new) if container else insert_ordered(holder, new, WS_ORDER))
    for el in old:
        holder.remove(el)
    if container:
        count = len(children(holder, tag))
        if count:
            holder.set("count", str(count))
        else:
            dst_root.remove(holder)


def put_autofilter(src_root, dst_root) -> None:
    for el in children(dst_root, "autoFilter"):
        dst_root.remove(el)
    found = child(src_root, "autoFilter") if src_root is not None else None
    if found is not None:
        insert_ordered(dst_root, copy.deepcopy(found), WS_ORDER)


def _cols(root) -> dict[int, dict]:
    cols = child(root, "cols") if root is not None else None
    found = {}
    for col in children(cols, "col") if cols is not None else []:
        attrs = {k: v for k, v in col.attrib.items() if k not in ("min", "max")}
        for n in range(int(col.get("min", "1")), min(int(col.get("max", "1")), 16384) + 1):
            found[n] = attrs
    return found


def _col_facts(attrs: dict | None):
    if not attrs:
        return None
    width = (
        round(float(attrs["width"]), 2) if "width" in attrs and attrs.get("customWidth", "1") != "0" else None
    )
    facts = (width, attrs.get("hidden", "0") in ("1", "true"), attrs.get("outlineLevel", "0"))
    return None if facts == (None, False, "0") else facts


def put_col(src_root, dst_root, index: int) -> None:
    from lxml import etree

    found = _cols(dst_root)
    wanted = _cols(src_root).get(index)
    if wanted is None:
        found.pop(index, None)
    else:
        found[index] = wanted
    old = child(dst_root, "cols")
    if old is not None:
        dst_root.remove(old)
    if not found:
        return
    cols = insert_ordered(dst_root, etree.Element(q(M, "cols")), WS_ORDER)
    numbers = sorted(found)
    start = numbers[0]
    for i, n in enumerate(numbers):
        nxt = numbers[i + 1] if i + 1 < len(numbers) else None
        if nxt != n + 1 or found[nxt] != found[n]:
            etree.SubElement(cols, q(M, "col"), min=str(start), max=str(n), **found[n])
            start = nxt


def _row_facts(row):
    if row is None:
        return None
    height = (
        round(float(row.get("ht")), 2) if row.get("ht") and row.get("customHeight") in ("1", "true") else None
    )
    facts = (height, row.get("hidden", "0") in ("1", "true"))
    return None if facts == (None, False) else facts


def put_row(src_root, dst_root, number: int) -> None:
    s_row = _row(src_root, number, create=False) if src_root is not None else None
    d_row = _row(dst_root, number, create=True)
    for attr in ("ht", "customHeight", "hidden"):
        d_row.attrib.pop(attr, None)
        if s_row is not None and s_row.get(attr) is not None:
            d_row.set(attr, s_row.get(attr))
    if not children(d_row) and set(d_row.attrib) <= {"r", "spans"}:
        d_row.getparent().remove(d_row)


def _names(book: Book) -> dict:
    names = child(book.xml(book.wb), "definedNames")
    sheets = [e.get("name") for e in book.sheet_entries()]
    found = {}
    for dn in children(names, "definedName") if names is not None else []:
        at = dn.get("localSheetId")
        scope = sheets[int(at)] if at is not None and int(at) < len(sheets) else None
        if not dn.get("name", "").startswith("_xlnm._FilterDatabase"):
            found[(dn.get("name"), scope)] = dn
    return found


def put_name(src: Book, dst: Book, key: tuple, scope_in_dst: str | None) -> None:
    from lxml import etree

    root = dst.xml(dst.wb, edit=True)
    names = child(root, "definedNames")
    if names is None:
        names = insert_ordered(root, etree.Element(q(M, "definedNames")), WB_ORDER)
    for found_key, dn in _names(dst).items():
        if found_key == (key[0], scope_in_dst):
            names.remove(dn)
    wanted = _names(src).get(key)
    if wanted is not None:
        new = copy.deepcopy(wanted)
        new.attrib.pop("localSheetId", None)
        if scope_in_dst is not None:
            new.set("localSheetId", str([e.get("name") for e in dst.sheet_entries()].index(scope_in_dst)))
        names.append(new)
    if not children(names):
        root.remove(names)
