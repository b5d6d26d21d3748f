"""Documents (.docx): units per paragraph, run formatting, table, section, header and footer, style
definition and document property, and the corruptions a careless agent makes in a document.

The body's blocks (paragraphs, tables) of the two versions are aligned with difflib on their text,
so an inserted or deleted paragraph is one unit and the rest keep their partners; paired blocks
whose text differs a little (a renamed term) are paired too. Units:

- docx.paragraph.{added,removed,text,runs,style,alignment,list,format,break}, and per run aspect
  docx.run.{bold,italic,underline,colour,size,font,highlight,strike,style,caps,vertAlign,format}
  when the golden kept the paragraph's runs as they were (else the formatting is one `runs` unit);
- docx.table.{added,removed,cell,format,row} (an added table is a container: its rows are units,
  the table itself one too when the file changed elsewhere), docx.table when its shape changed;
- docx.section.{page,margin,columns,start} per section, docx.header / docx.footer per section and
  kind (default, first, even), docx.style per style definition, docx.property (docProps/core.xml,
  less what incidental.yaml names).

Ops open the document with python-docx, edit its lxml elements (a block or a property deep-copied
from the other version over this one's) and save it. A copied block that needs a style or a list
definition the document lacks brings it along; one that refers to a part by relationship (an image)
is not copied (the op fails and the unit is skipped).
"""

from __future__ import annotations

import copy
import difflib
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
    property_units,
    same,
    short,
    wrong_format,
)

SUFFIXES = (".docx",)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

PPR_ORDER = _words(
    "pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers pBdr shd tabs "
    "suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE autoSpaceDN bidi adjustRightInd "
    "snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap jc textDirection textAlignment "
    "textboxTightWrap outlineLvl divId cnfStyle rPr sectPr pPrChange"
)
RPR_ORDER = _words(
    "rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint noProof snapToGrid "
    "vanish webHidden color spacing w kern position sz szCs highlight u effect bdr shd fitText vertAlign rtl cs "
    "em lang eastAsianLayout specVanish oMath"
)
SECT_ORDER = _words(
    "headerReference footerReference footnotePr endnotePr type pgSz pgMar paperSrc pgBorders lnNumType "
    "pgNumType cols formProt vAlign noEndnote titlePg textDirection bidi rtlGutter docGrid printerSettings "
    "sectPrChange"
)
RUN_ASPECTS = {
    "bold": ("b", "bCs"),
    "italic": ("i", "iCs"),
    "underline": ("u",),
    "colour": ("color",),
    "size": ("sz", "szCs"),
    "font": ("rFonts",),
    "highlight": ("highlight", "shd"),
    "strike": ("strike", "dstrike"),
    "style": ("rStyle",),
    "caps": ("caps", "smallCaps"),
    "vertAlign": ("vertAlign",),
}
PARA_ASPECTS = {"style": ("pStyle",), "alignment": ("jc",), "list": ("numPr",)}
NOT_FORMAT = {"pStyle", "jc", "numPr", "sectPr", "rPr", "pPrChange"}
MARGINS = ("top", "bottom", "left", "right", "header", "footer", "gutter")
HEADERS = (
    "header",
    "first_page_header",
    "even_page_header",
    "footer",
    "first_page_footer",
    "even_page_footer",
)


def q(tag: str) -> str:
    return f"{{{W}}}{tag}"


def text_of(el) -> str:
    """The text of a paragraph (or of anything holding paragraphs): tabs and breaks as \\t and \\n."""
    out = []
    for node in el.iter(q("t"), q("tab"), q("br"), q("cr"), q("p")):
        name = local(node)
        if name == "t":
            out.append(node.text or "")
        elif name == "tab" and node.getparent() is not None and local(node.getparent()) == "r":
            out.append("\t")
        elif name in ("br", "cr") or name == "p" and node is not el and out:
            out.append("\n")
    return "".join(out)


def blocks(doc) -> list:
    return [el for el in children(doc.element.body) if local(el) in ("p", "tbl", "sdt")]


def table_cells(tbl) -> list[list]:
    return [children(tr, "tc") for tr in children(tbl, "tr")]


def block_key(el) -> tuple:
    if local(el) == "tbl":
        return ("tbl", tuple(tuple(text_of(tc) for tc in row) for row in table_cells(el)))
    return (local(el), " ".join(text_of(el).split()))


def runs_of(p) -> list:
    return [r for r in p.iter(q("r"))]


def _flat(key: tuple) -> str:
    return key[1] if key[0] != "tbl" else " ".join(" ".join(row) for row in key[1])


def align(before: list, after: list) -> list[tuple[int, int]]:
    """(initial index, golden index) of the blocks that are the same block in both versions."""
    a, b = [block_key(el) for el in before], [block_key(el) for el in after]
    pairs = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += zip(range(i1, i2), range(j1, j2), strict=True)
        elif tag == "replace":
            j = j1
            for i in range(i1, i2):
                for jj in range(j, j2):
                    similar = difflib.SequenceMatcher(None, _flat(a[i]), _flat(b[jj]), autojunk=False).ratio()
                    same_shape = a[i][0] == "tbl" and len(a[i][1]) == len(b[jj][1])
                    if a[i][0] == b[jj][0] and (similar >= 0.5 or same_shape):
                        pairs.append((i, jj))
                        j = jj + 1
                        break
    return pairs


@cache
def _source(path: str):
    import docx

    return docx.Document(path)


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


# --- finding the units ----------------------------------------------------------------------------------


class _Plan(OfficePlan):
    load = staticmethod(_source)

    def __init__(self, rel: str, initial: Path, golden: Path):
        super().__init__(rel, initial, golden)  # touched: golden blocks some unit changes
        self.i, self.g = _source(initial), _source(golden)
        self.ib, self.gb = blocks(self.i), blocks(self.g)
        self.pairs = align(self.ib, self.gb)
        self.g_to_i = {j: i for i, j in self.pairs}
        self.i_to_g = {i: j for i, j in self.pairs}
        self.restyled: list[tuple[int, str]] = []  # (golden block, new style) of paragraph style units
        self.reformatted: list[int] = []  # golden paragraphs whose run formatting the golden changed

    def find(self) -> list[Unit]:
        for i, j in self.pairs:
            a, b = self.ib[i], self.gb[j]
            if same(a, b):
                continue
            if local(a) == "p":
                self._paragraph(i, j)
            elif local(a) == "tbl":
                self._table(i, j)
            else:
                self._whole(i, j)
        self._insertions()
        self._sections()
        self._styles()
        self.units += property_units(
            "docx", self.rel, self.initial, self.golden, Package(self.initial), Package(self.golden)
        )
        for unit, inner in self.containers:
            if len(inner) > 1 and not any(id(u) not in inner for u in self.units):  # parts, nothing else
                self.units.remove(unit)
        return self.units

    def _where(self, j: int) -> str:
        return f"paragraph {j + 1} {short(' '.join(text_of(self.gb[j]).split()), 50)}"

    def _paragraph(self, i: int, j: int) -> None:
        a, b = self.ib[i], self.gb[j]
        where = self._where(j)
        if text_of(a) != text_of(b) or not same(_content(a), _content(b)):
            same_runs = [text_of(r) for r in runs_of(a)] == [text_of(r) for r in runs_of(b)]
            if text_of(a) == text_of(b) and same_runs and _runs_only_differ(a, b):
                self._run_units(i, j)
            else:
                kind = "text" if text_of(a) != text_of(b) else "runs"
                what = (
                    f"{where} text {short(text_of(a), 50)} -> {short(text_of(b), 50)}"
                    if kind == "text"
                    else f"{where} run formatting"
                )
                self.unit(
                    f"docx.paragraph.{kind}",
                    what,
                    lambda dst, src: put_content(src, blocks(src)[i], dst, blocks(dst)[j], "pPr"),
                    lambda dst, src: put_content(src, blocks(src)[j], dst, blocks(dst)[i], "pPr"),
                    j,
                )
                if kind == "runs":
                    self.reformatted.append(j)
        for aspect, tags in PARA_ASPECTS.items():
            if _pr_facts(a, "pPr", tags) != _pr_facts(b, "pPr", tags):
                if aspect == "style":
                    style = child(_props(b, "pPr"), "pStyle") if _props(b, "pPr") is not None else None
                    self.restyled.append((j, style.get(q("val")) if style is not None else None))
                self.unit(
                    f"docx.paragraph.{aspect}",
                    f"{where} {aspect} {_shown(a, tags)} -> {_shown(b, tags)}",
                    lambda dst, src, t=tags: put_props(
                        src, blocks(src)[i], dst, blocks(dst)[j], "pPr", t, PPR_ORDER
                    ),
                    lambda dst, src, t=tags: put_props(
                        src, blocks(src)[j], dst, blocks(dst)[i], "pPr", t, PPR_ORDER
                    ),
                    j,
                )
        if _pr_facts(a, "pPr", NOT_FORMAT, invert=True) != _pr_facts(b, "pPr", NOT_FORMAT, invert=True):
            self.unit(
                "docx.paragraph.format",
                f"{where} paragraph format (spacing, indents, ...)",
                lambda dst, src: put_props(
                    src, blocks(src)[i], dst, blocks(dst)[j], "pPr", NOT_FORMAT, PPR_ORDER, invert=True
                ),
                lambda dst, src: put_props(
                    src, blocks(src)[j], dst, blocks(dst)[i], "pPr", NOT_FORMAT, PPR_ORDER, invert=True
                ),
                j,
            )

    def _run_units(self, i: int, j: int) -> None:
        a, b = self.ib[i], self.gb[j]
        other = set(RPR_ORDER) - {t for tags in RUN_ASPECTS.values() for t in tags}
        aspects = {**RUN_ASPECTS, "format": tuple(sorted(other))}
        for aspect, tags in aspects.items():
            before = [_pr_facts(r, "rPr", tags) for r in runs_of(a)]
            after = [_pr_facts(r, "rPr", tags) for r in runs_of(b)]
            if before == after:
                continue
            self.reformatted.append(j)

            def put(dst, src, s_index, d_index, t=tags):
                for s_run, d_run in zip(
                    runs_of(blocks(src)[s_index]), runs_of(blocks(dst)[d_index]), strict=True
                ):
                    put_props(src, s_run, dst, d_run, "rPr", t, RPR_ORDER)

            self.unit(
                f"docx.run.{aspect}",
                f"{self._where(j)} {aspect} of its runs",
                lambda dst, src, put=put: put(dst, src, i, j),
                lambda dst, src, put=put: put(dst, src, j, i),
                j,
            )

    def _table(self, i: int, j: int) -> None:
        a, b = self.ib[i], self.gb[j]
        where = f"table {j + 1}"
        shape_a, shape_b = [len(r) for r in table_cells(a)], [len(r) for r in table_cells(b)]
        if shape_a != shape_b:
            self._whole(i, j)
            return
        for r, (row_a, row_b) in enumerate(zip(table_cells(a), table_cells(b), strict=True)):
            for c, (tc_a, tc_b) in enumerate(zip(row_a, row_b, strict=True)):
                if same(_content(tc_a, "tcPr"), _content(tc_b, "tcPr")):
                    continue
                self.unit(
                    "docx.table.cell",
                    f"{where} cell ({r + 1}, {c + 1}) {short(text_of(tc_a))} -> {short(text_of(tc_b))}",
                    lambda dst, src, r=r, c=c: put_content(
                        src, table_cells(blocks(src)[i])[r][c], dst, table_cells(blocks(dst)[j])[r][c], "tcPr"
                    ),
                    lambda dst, src, r=r, c=c: put_content(
                        src, table_cells(blocks(src)[j])[r][c], dst, table_cells(blocks(dst)[i])[r][c], "tcPr"
                    ),
                    j,
                )
        if _table_format(a) != _table_format(b):
            self.unit(
                "docx.table.format",
                f"{where} table format (style, borders, widths)",
                lambda dst, src: put_table_format(src, blocks(src)[i], dst, blocks(dst)[j]),
                lambda dst, src: put_table_format(src, blocks(src)[j], dst, blocks(dst)[i]),
                j,
            )

    def _whole(self, i: int, j: int) -> None:
        self.unit(
            f"docx.{local(self.gb[j]) if local(self.gb[j]) != 'tbl' else 'table'}",
            f"block {j + 1} ({local(self.gb[j])}) rewritten",
            lambda dst, src: put_block(src, blocks(src)[i], dst, blocks(dst)[j]),
            lambda dst, src: put_block(src, blocks(src)[j], dst, blocks(dst)[i]),
            j,
        )

    def _insertions(self) -> None:
        for j, el in enumerate(self.gb):
            if j in self.g_to_i:
                continue
            before = [x for x in range(j) if x in self.g_to_i]
            anchor = self.g_to_i[before[-1]] if before else None
            name = "table" if local(el) == "tbl" else "paragraph"
            what = f"{name} {j + 1} added" + (
                f": {short(' '.join(text_of(el).split()), 50)}" if name != "table" else ""
            )
            start = len(self.units)

            def apply(dst, src, j=j, anchor=anchor):
                put_block(src, blocks(src)[j], dst, after=blocks(dst)[anchor] if anchor is not None else None)

            unit = self.unit(
                f"docx.{name}.added", what, lambda dst, src, j=j: _remove(blocks(dst)[j]), apply, j
            )
            if name == "table":
                self._rows(j, anchor)
                self.containers.append((unit, {id(u) for u in self.units[start:]}))
        for i, el in enumerate(self.ib):
            if i in self.i_to_g:
                continue
            before = [x for x in range(i) if x in self.i_to_g]
            anchor = self.i_to_g[before[-1]] if before else None
            name = "table" if local(el) == "tbl" else "paragraph"

            def revert(dst, src, i=i, anchor=anchor):
                put_block(src, blocks(src)[i], dst, after=blocks(dst)[anchor] if anchor is not None else None)

            self.unit(
                f"docx.{name}.removed",
                f"{name} {short(' '.join(text_of(el).split()), 50)} deleted",
                revert,
                lambda dst, src, i=i: _remove(blocks(dst)[i]),
            )

    def _rows(self, j: int, anchor: int | None) -> None:
        rows = children(self.gb[j], "tr")
        if len(rows) < 2:
            return
        for r in range(len(rows)):

            def revert(dst, src, r=r):
                _remove(children(blocks(dst)[j], "tr")[r])

            def apply(dst, src, r=r):
                put_block(src, blocks(src)[j], dst, after=blocks(dst)[anchor] if anchor is not None else None)
                new = blocks(dst)[anchor + 1 if anchor is not None else 0]
                for n, tr in enumerate(children(new, "tr")):
                    if n != r:
                        new.remove(tr)

            self.unit(
                "docx.table.row",
                f"table {j + 1} (added) row {r + 1} {short(text_of(rows[r]), 50)}",
                revert,
                apply,
                j,
            )

    def _sections(self) -> None:
        si, sg = list(self.i.sections), list(self.g.sections)
        if len(si) != len(sg):
            self._breaks()
            return
        for k, (a, b) in enumerate(zip(si, sg, strict=True)):
            before, after = _sect_facts(a._sectPr), _sect_facts(b._sectPr)
            for (tag, attrs), was in before.items():
                now = after[(tag, attrs)]
                if was == now:
                    continue
                kind = {"pgSz": "page", "pgMar": "margin", "cols": "columns", "type": "start"}[tag]
                what = f"section {k + 1} {kind}" + (
                    f" {attrs[0]} {was} -> {now}" if attrs else " size/orientation"
                )
                self.unit(
                    f"docx.section.{kind}",
                    what,
                    lambda dst, src, k=k, tag=tag, attrs=attrs: put_sect(src, k, dst, k, tag, attrs),
                    lambda dst, src, k=k, tag=tag, attrs=attrs: put_sect(src, k, dst, k, tag, attrs),
                )
            for attr in HEADERS:
                if _hf_facts(a, attr) != _hf_facts(b, attr):
                    kind = "footer" if attr.endswith("footer") else "header"
                    self.unit(
                        f"docx.{kind}",
                        f"section {k + 1} {attr.replace('_', ' ')} "
                        + ("added" if _hf_facts(a, attr) is None else "changed"),
                        lambda dst, src, k=k, attr=attr: put_hf(src, k, dst, k, attr),
                        lambda dst, src, k=k, attr=attr: put_hf(src, k, dst, k, attr),
                    )

    def _breaks(self) -> None:
        """Sections added or removed: a paragraph gained or lost its section break."""
        for i, j in self.pairs:
            a, b = self.ib[i], self.gb[j]
            if local(a) != "p" or _pr_facts(a, "pPr", ("sectPr",)) == _pr_facts(b, "pPr", ("sectPr",)):
                continue
            self.unit(
                "docx.paragraph.break",
                f"{self._where(j)} section break " + ("added" if _props(b, "pPr") is not None else "changed"),
                lambda dst, src, i=i, j=j: put_props(
                    src, blocks(src)[i], dst, blocks(dst)[j], "pPr", ("sectPr",), PPR_ORDER
                ),
                lambda dst, src, i=i, j=j: put_props(
                    src, blocks(src)[j], dst, blocks(dst)[i], "pPr", ("sectPr",), PPR_ORDER
                ),
                j,
            )

    def _styles(self) -> None:
        before = {s.get(q("styleId")): s for s in children(_styles_el(self.i), "style")}
        after = {s.get(q("styleId")): s for s in children(_styles_el(self.g), "style")}
        for style_id in sorted(set(before) | set(after), key=str):
            was, now = before.get(style_id), after.get(style_id)
            if was is not None and now is not None and same(was, now):
                continue
            state = "added" if was is None else "removed" if now is None else "changed"
            self.unit(
                "docx.style",
                f"style {style_id} {state}",
                lambda dst, src, s=style_id: _put_style(src, dst, s),
                lambda dst, src, s=style_id: _put_style(src, dst, s),
            )
        was, now = child(_styles_el(self.i), "docDefaults"), child(_styles_el(self.g), "docDefaults")
        if (was is None) != (now is None) or (was is not None and not same(was, now)):
            self.unit("docx.style", "document default formatting changed", _put_defaults, _put_defaults)


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


def _content(el, keep: str = "pPr"):
    """A copy of `el` without its `keep` properties (what put_content replaces)."""
    new = copy.deepcopy(el)
    for c in children(new, keep):
        new.remove(c)
    return new


def _runs_only_differ(a, b) -> bool:
    """The two paragraphs differ only in their runs' properties (not in what else they hold)."""
    strip = [copy.deepcopy(_content(x)) for x in (a, b)]
    for x in strip:
        for r in x.iter(q("r")):
            for pr in children(r, "rPr"):
                r.remove(pr)
    return same(strip[0], strip[1])


def _shown(el, tags) -> str:
    pr = _props(el, "pPr")
    found = [c for c in children(pr) if local(c) in tags] if pr is not None else []
    if not found:
        return "none"
    return ",".join(str(c.get(q("val")) or local(c)) for c in found)


def _remove(el) -> None:
    el.getparent().remove(el)


@cache
def _plan(rel: str, initial: str, golden: str) -> _Plan:
    plan = _Plan(rel, Path(initial), Path(golden))
    plan.find()
    return plan


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    return _plan(rel, str(initial), str(golden)).units


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
