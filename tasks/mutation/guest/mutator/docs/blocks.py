"""A document's body as blocks (paragraphs, tables): their text, runs and keys, the alignment of the
two versions' blocks, and the element orders and aspects the units compare."""

from __future__ import annotations

import difflib
from functools import cache

from mutator.ooxml import _words, children, local

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
