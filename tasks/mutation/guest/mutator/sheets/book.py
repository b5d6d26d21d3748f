"""A workbook's parts (Book): its sheets, styles and relationships, the element orders the schema
requires, and cell and row lookup in a sheet's XML."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from mutator.ooxml import Package, _words, child, children, insert_ordered, main_part, q

M = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


WS_ORDER = _words(
    "sheetPr dimension sheetViews sheetFormatPr cols sheetData sheetCalcPr sheetProtection protectedRanges "
    "scenarios autoFilter sortState dataConsolidate customSheetViews mergeCells phoneticPr "
    "conditionalFormatting dataValidations hyperlinks printOptions pageMargins pageSetup headerFooter "
    "rowBreaks colBreaks customProperties cellWatches ignoredErrors smartTags drawing legacyDrawing "
    "legacyDrawingHF drawingHF picture oleObjects controls webPublishItems tableParts extLst"
)
STYLE_ORDER = _words(
    "numFmts fonts fills borders cellStyleXfs cellXfs cellStyles dxfs tableStyles colors extLst"
)
WB_ORDER = _words(
    "fileVersion fileSharing workbookPr workbookProtection bookViews sheets functionGroups externalReferences "
    "definedNames calcPr oleSize customWorkbookViews pivotCaches smartTagPr smartTagTypes webPublishing "
    "fileRecoveryPr webPublishObjects extLst"
)
CHART_ORDER = _words(
    "title autoTitleDeleted pivotFmts view3D floor sideWall backWall plotArea legend plotVisOnly "
    "dispBlanksAs showDLblsOverMax extLst"
)
AXIS_ORDER = _words(
    "axId scaling delete axPos majorGridlines minorGridlines title numFmt majorTickMark minorTickMark "
    "tickLblPos spPr txPr crossAx crosses crossesAt crossBetween auto lblAlgn lblOffset baseTimeUnit "
    "majorUnit majorTimeUnit minorUnit minorTimeUnit tickLblSkip tickMarkSkip dispUnits noMultiLvlLbl "
    "extLst"
)
SER_ORDER = _words(
    "idx order tx spPr invertIfNegative pictureOptions marker explosion dPt dLbls trendline errBars cat "
    "xVal val yVal shape smooth bubbleSize bubble3D extLst"
)
AXES = ("catAx", "valAx", "dateAx", "serAx")
ANCHORS = ("twoCellAnchor", "oneCellAnchor", "absoluteAnchor")
FONT_TAGS = {
    "bold": ("b",),
    "italic": ("i",),
    "underline": ("u",),
    "strike": ("strike",),
    "size": ("sz",),
    "colour": ("color",),
    "name": ("name", "family", "charset", "scheme"),
    "vertAlign": ("vertAlign",),
}
WORKSHEET = R + "/worksheet"
DRAWING = R + "/drawing"
CHART = R + "/chart"


class Book(Package):
    """A workbook's parts: its sheets by name (worksheets only), shared strings and stylesheet."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.wb = main_part(self)
        self.formulas_changed = False

    def part_of(self, rel_type: str) -> str | None:
        rel = next((r for r in self.rels(self.wb) if r.get("Type") == R + "/" + rel_type), None)
        return self.target(self.wb, rel) if rel is not None else None

    def sheet_entries(self) -> list:
        sheets = child(self.xml(self.wb), "sheets")
        return children(sheets, "sheet") if sheets is not None else []

    def sheet_names(self) -> list[str]:
        return [e.get("name") for e in self.sheet_entries() if self._entry_part(e, WORKSHEET)]

    def _entry_part(self, entry, rel_type: str = WORKSHEET) -> str | None:
        rel = self.rel(self.wb, entry.get(q(R, "id")))
        return self.target(self.wb, rel) if rel is not None and rel.get("Type") == rel_type else None

    def entry(self, name: str):
        found = next((e for e in self.sheet_entries() if e.get("name") == name), None)
        if found is None:
            raise KeyError(f"no sheet {name!r}")
        return found

    def sheet_part(self, name: str) -> str:
        return self._entry_part(self.entry(name))

    def sheet(self, name: str, edit: bool = False):
        return self.xml(self.sheet_part(name), edit)

    def shared(self, index: int):
        part = self.part_of("sharedStrings")
        return children(self.xml(part), "si")[index]

    def styles(self, edit: bool = False):
        part = self.part_of("styles")
        if part is None:
            raise ValueError("the workbook has no stylesheet")
        return self.xml(part, edit)

    def style_list(self, name: str, edit: bool = False):
        from lxml import etree

        root = self.styles(edit)
        found = child(root, name)
        if found is None and edit:
            found = insert_ordered(root, etree.Element(q(M, name)), STYLE_ORDER)
        return found

    def style_item(self, name: str, index: int):
        found = self.style_list(name)
        items = children(found) if found is not None else []
        return items[index] if 0 <= index < len(items) else None

    def style_add(self, name: str, el) -> int:
        container = self.style_list(name, edit=True)
        container.append(el)
        count = len(children(container))
        container.set("count", str(count))
        return count - 1

    def xf(self, cell) -> object:
        from lxml import etree

        found = self.style_item("cellXfs", int(cell.get("s", "0")) if cell is not None else 0)
        return (
            found
            if found is not None
            else etree.Element(q(M, "xf"), numFmtId="0", fontId="0", fillId="0", borderId="0", xfId="0")
        )

    def numfmt_code(self, number: int) -> str:
        from openpyxl.styles.numbers import BUILTIN_FORMATS

        formats = self.style_list("numFmts")
        for fmt in children(formats) if formats is not None else []:
            if fmt.get("numFmtId") == str(number):
                return fmt.get("formatCode", "General")
        return BUILTIN_FORMATS.get(number, "General")

    def numfmt_id(self, code: str) -> int:
        from lxml import etree
        from openpyxl.styles.numbers import BUILTIN_FORMATS

        formats = self.style_list("numFmts")
        custom = (
            {int(f.get("numFmtId")): f.get("formatCode") for f in children(formats)}
            if formats is not None
            else {}
        )
        for number, found in custom.items():
            if found == code:
                return number
        for number, found in BUILTIN_FORMATS.items():
            if found == code and number not in custom:
                return number
        number = max([163, *custom]) + 1
        self.style_add("numFmts", etree.Element(q(M, "numFmt"), numFmtId=str(number), formatCode=code))
        return number

    def epoch(self):
        from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

        pr = child(self.xml(self.wb), "workbookPr")
        mac = pr is not None and pr.get("date1904") in ("1", "true")
        return CALENDAR_MAC_1904 if mac else CALENDAR_WINDOWS_1900

    def save(self, path: Path) -> None:
        if self.formulas_changed:
            self._drop_cached_values()
        super().save(path)

    def _drop_cached_values(self) -> None:
        from lxml import etree

        for name in self.sheet_names():
            root = self.sheet(name)
            cells = [
                c for c in root.iter(q(M, "c")) if child(c, "f") is not None and child(c, "v") is not None
            ]
            for c in cells:
                self.xml(self.sheet_part(name), edit=True)
                c.remove(child(c, "v"))
                if c.get("t") in ("str", "e", "b", "n"):
                    del c.attrib["t"]
        calc_chain = self.part_of("calcChain")
        if calc_chain:
            rel = next(r for r in self.rels(self.wb) if r.get("Type") == R + "/calcChain")
            self.drop_rel(self.wb, rel.get("Id"))
            self.remove(calc_chain)
        root = self.xml(self.wb, edit=True)
        calc = child(root, "calcPr")
        if calc is None:
            calc = insert_ordered(root, etree.Element(q(M, "calcPr"), calcId="191029"), WB_ORDER)
        calc.set("fullCalcOnLoad", "1")


@cache
def _source(path: str) -> Book:
    """A read-only home's workbook (ops copy from it, never into it)."""
    return Book(Path(path))


def _coord(coord: str) -> tuple[int, int]:
    from openpyxl.utils.cell import coordinate_to_tuple

    return coordinate_to_tuple(coord)


def _ref(row: int, col: int) -> str:
    from openpyxl.utils.cell import get_column_letter

    return f"{get_column_letter(col)}{row}"


def _sheet_data(root):
    from lxml import etree

    found = child(root, "sheetData")
    return found if found is not None else insert_ordered(root, etree.Element(q(M, "sheetData")), WS_ORDER)


def _row(root, number: int, create: bool):
    from lxml import etree

    data = _sheet_data(root)
    rows = children(data, "row")
    for i, row in enumerate(rows):  # rows without r follow the previous one
        if row.get("r") is None:
            row.set("r", str(int(rows[i - 1].get("r")) + 1 if i else 1))
    for row in rows:
        if int(row.get("r")) == number:
            return row
        if int(row.get("r")) > number:
            if not create:
                return None
            new = etree.Element(q(M, "row"), r=str(number))
            row.addprevious(new)
            return new
    return etree.SubElement(data, q(M, "row"), r=str(number)) if create else None


def _cell(root, coord: str, create: bool):
    from lxml import etree

    number, col = _coord(coord)
    row = _row(root, number, create)
    if row is None:
        return None
    cells = children(row, "c")
    for i, c in enumerate(cells):
        if c.get("r") is None:
            c.set("r", _ref(number, _coord(cells[i - 1].get("r"))[1] + 1 if i else 1))
    row.attrib.pop("spans", None)
    for c in cells:
        at = _coord(c.get("r"))[1]
        if at == col:
            return c
        if at > col:
            if not create:
                return None
            new = etree.Element(q(M, "c"), r=coord)
            c.addprevious(new)
            return new
    return etree.SubElement(row, q(M, "c"), r=coord) if create else None


def _prune(c) -> None:
    """Remove a cell left with neither value nor style, and a row left empty and plain."""
    if children(c) or c.get("s", "0") != "0":
        return
    row = c.getparent()
    row.remove(c)
    if not children(row) and set(row.attrib) <= {"r", "spans"}:
        row.getparent().remove(row)
