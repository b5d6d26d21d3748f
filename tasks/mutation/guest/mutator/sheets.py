"""Spreadsheets (.xlsx): one unit per changed cell and aspect, per sheet and per sheet feature, and
the corruptions a careless agent makes in a workbook.

Units are found with openpyxl (cells: the values and styles a reward reads) and by comparing the
sheet XML (features: freeze panes, data validations, conditional formats, auto-filter, merged cells,
column widths, row heights, defined names, charts):

- xlsx.cell.value, xlsx.cell.number_format, xlsx.cell.font.{bold,italic,underline,strike,size,
  colour,name,vertAlign}, xlsx.cell.{fill,border,alignment,protection}: one per cell and aspect;
- xlsx.sheet.{added,removed,renamed,moved}; xlsx.{freeze,validation,conditional_format,autofilter,
  merge,column,row,name}; xlsx.property (document properties that are not incidental);
- charts: xlsx.chart (added or removed whole: its revert removes the chart), and the parts of an
  added or changed chart: xlsx.chart.{title,axis_title,series,categories,type} (a series' name is
  not a unit of its own: it comes with the series, and no task asks for it).

An added sheet or chart is a container: its parts are units (a cell of an added sheet: the golden
with that cell cleared, or the initial with an empty sheet holding only that cell), and the
container itself is a unit too when the file has other units outside it (otherwise reverting it
would give the initial file, and applying it the golden one).

Ops never load and save a workbook through openpyxl (which rewrites everything and may lose what it
does not model): they edit the parts inside the zip with lxml, so whatever a unit does not touch
stays as it was, charts and images included. A value op writes the value openpyxl read (a shared
string becomes an inline string); a style op copies the one font/fill/border/number-format record
into the target's stylesheet. Once a value changes, every formula's cached value is dropped (and
the workbook marked for recalculation): a stale cache would show the golden's result.

The Package class and the document-property units are shared with docs.py and decks.py.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import posixpath
import re
import sys
import zipfile
from functools import cache
from pathlib import Path

from mutator.core import Corruption, OfficePlan, Unit

SUFFIXES = (".xlsx",)

M = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
MAX_PART = 64 << 20  # a part bigger than this (uncompressed) is not parsed: the file stays one unit
KIT = "/opt/cuagym/mutation/kit"  # skills/kit/guest, bound by the host: the reward kit's evaluator


def q(ns: str, tag: str) -> str:
    return f"{{{ns}}}{tag}"


def local(el) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def children(el, name: str | None = None) -> list:
    return [c for c in el if isinstance(c.tag, str) and (name is None or local(c) == name)]


def child(el, name: str):
    return next((c for c in el if isinstance(c.tag, str) and local(c) == name), None)


def canon(el, skip: tuple = ()) -> tuple:
    """An element as a comparable value: tag, attributes (less those named in `skip`, at any depth),
    text and children, whatever the prefixes and the indentation."""
    kids = tuple(canon(c, skip) for c in el if isinstance(c.tag, str))
    text = el.text or ""
    text = text if not kids else text.strip()
    return (el.tag, tuple(sorted((k, v) for k, v in el.attrib.items() if k not in skip)), text, kids)


def same(a, b, skip: tuple = ()) -> bool:
    """canon(a) == canon(b) (None only equals None), with a byte-for-byte fast path."""
    from lxml import etree

    if a is None or b is None:
        return a is b
    if not skip and etree.tostring(a) == etree.tostring(b):
        return True
    return canon(a, skip) == canon(b, skip)


def insert_ordered(parent, el, order: list[str]):
    """Insert `el` among `parent`'s children where the schema's sequence `order` puts it."""
    rank = order.index(local(el)) if local(el) in order else len(order)
    for sibling in children(parent):
        if (order.index(local(sibling)) if local(sibling) in order else len(order)) > rank:
            sibling.addprevious(el)
            return el
    parent.append(el)
    return el


def short(value, width: int = 40) -> str:
    text = "empty" if value is None else repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def moved_items(initial: list, golden: list) -> list:
    """The items of `golden` (present in both lists, no duplicates) that moved: those outside a
    longest subsequence kept in the initial order."""
    common = [x for x in golden if x in initial]
    rank = [initial.index(x) for x in common]
    best: list[list[int]] = []  # best[k]: the indices of an increasing run of length k+1
    for i, r in enumerate(rank):
        run = max((b for b in best if rank[b[-1]] < r), key=len, default=[])
        best.append([*run, i])
    keep = {common[i] for i in max(best, key=len, default=[])}
    return [x for x in common if x not in keep]


def preceding(order: list, item, present) -> object | None:
    """The nearest item before `item` in `order` for which present(x) holds, or None."""
    before = order[: order.index(item)]
    return next((x for x in reversed(before) if present(x)), None)


@cache
def incidental(kind: str) -> tuple[str, ...]:
    """The incidental.yaml patterns of `kind`: from the config the host passed (argv), else read
    from the file next to this module (a flat subset of YAML: lists of strings)."""
    try:
        rules = json.loads(sys.argv[1]).get("incidental")
        if isinstance(rules, dict):
            return tuple(rules.get(kind) or ())
    except (IndexError, ValueError, AttributeError):
        pass
    rules, anchors, key = {}, {}, None
    for line in (Path(__file__).with_name("incidental.yaml")).read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if not line.startswith((" ", "-")):  # key: [a, b] | key: &anchor | key: *alias
            key, _, rest = line.partition(":")
            rest = rest.strip()
            if rest.startswith("*"):
                rules[key] = anchors.get(rest[1:], [])
                continue
            if rest.startswith("&"):
                name, _, rest = rest[1:].partition(" ")
                anchors[name] = rules[key] = []
            else:
                rules[key] = []
            rules[key] += [s.strip().strip("'\"") for s in rest.strip().strip("[]").split(",") if s.strip()]
        elif key is not None and line.strip().startswith("- "):
            rules[key].append(line.strip()[2:].strip().strip("'\""))
    return tuple(rules.get(kind) or ())


def is_incidental(kind: str, name: str) -> bool:
    import fnmatch

    return any(fnmatch.fnmatch(name, pattern) for pattern in incidental(kind))


def _parser():
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class Package:
    """An OPC package (a zip of parts) held in memory. Parts are parsed with lxml on demand; `save`
    writes every part back in its original order, the edited ones re-serialised and the others byte
    for byte."""

    def __init__(self, path: Path):
        self.data: dict[str, bytes] = {}
        self.infos: dict[str, zipfile.ZipInfo] = {}
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                if info.file_size > MAX_PART:
                    raise ValueError(f"part {info.filename} is too big to compare ({info.file_size} bytes)")
                self.infos[info.filename] = info
                self.data[info.filename] = archive.read(info)
        self.trees: dict = {}
        self.edited: set[str] = set()

    def has(self, name: str) -> bool:
        return name in self.data or name in self.trees

    def xml(self, name: str, edit: bool = False):
        from lxml import etree

        if name not in self.trees:
            self.trees[name] = etree.fromstring(self.data[name], _parser())
        if edit:
            self.edited.add(name)
        return self.trees[name]

    def put_xml(self, name: str, root) -> None:
        self.trees[name] = root
        self.edited.add(name)
        self.data.setdefault(name, b"")

    def put_bytes(self, name: str, data: bytes) -> None:
        self.data[name] = data
        self.trees.pop(name, None)
        self.edited.discard(name)

    def remove(self, name: str) -> None:
        self.data.pop(name, None)
        self.trees.pop(name, None)
        self.edited.discard(name)
        if self.has(rels_name(name)):
            self.remove(rels_name(name))
        types = self.xml("[Content_Types].xml", edit=True)
        for override in children(types, "Override"):
            if override.get("PartName") == "/" + name:
                types.remove(override)

    def fresh(self, name: str) -> str:
        """`name`, or the first free name with the same stem and a higher number."""
        stem, number, ext = re.match(r"^(.*?)(\d*)(\.[^./]+)$", name).groups()
        n = int(number or 1)
        while self.has(f"{stem}{n}{ext}"):
            n += 1
        return f"{stem}{n}{ext}"

    def content_type(self, name: str) -> str | None:
        types = self.xml("[Content_Types].xml")
        for override in children(types, "Override"):
            if override.get("PartName") == "/" + name:
                return override.get("ContentType")
        ext = name.rsplit(".", 1)[-1].lower()
        return next(
            (
                d.get("ContentType")
                for d in children(types, "Default")
                if d.get("Extension", "").lower() == ext
            ),
            None,
        )

    def set_content_type(self, name: str, content_type: str | None) -> None:
        if content_type is None or self.content_type(name) == content_type:
            return
        from lxml import etree

        types = self.xml("[Content_Types].xml", edit=True)
        etree.SubElement(types, q(CT, "Override"), PartName="/" + name, ContentType=content_type)

    def rels(self, part: str) -> list:
        name = rels_name(part)
        return children(self.xml(name), "Relationship") if self.has(name) else []

    def target(self, part: str, rel) -> str | None:
        """The part a relationship of `part` points to (None for an external one)."""
        if rel.get("TargetMode") == "External":
            return None
        target = rel.get("Target", "")
        if target.startswith("/"):
            return target[1:]
        return posixpath.normpath(posixpath.join(posixpath.dirname(part), target))

    def rel(self, part: str, rid: str):
        return next((r for r in self.rels(part) if r.get("Id") == rid), None)

    def add_rel(
        self,
        part: str,
        rel_type: str,
        target: str | None,
        external: str | None = None,
        rid: str | None = None,
    ) -> str:
        from lxml import etree

        name = rels_name(part)
        if not self.has(name):
            self.put_xml(name, etree.Element(q(PR, "Relationships"), nsmap={None: PR}))
        root = self.xml(name, edit=True)
        used = {r.get("Id") for r in children(root, "Relationship")}
        n = 1
        while f"rId{n}" in used:
            n += 1
        rid = rid if rid and rid not in used else f"rId{n}"
        rel = etree.SubElement(root, q(PR, "Relationship"), Id=rid, Type=rel_type)
        if external is not None:
            rel.set("Target", external)
            rel.set("TargetMode", "External")
        else:
            rel.set("Target", posixpath.relpath(target, posixpath.dirname(part) or "."))
        return rid

    def drop_rel(self, part: str, rid: str) -> None:
        for rel in self.rels(part):
            if rel.get("Id") == rid:
                self.xml(rels_name(part), edit=True).remove(rel)

    def copy_part(self, src: Package, name: str, hint: str | None = None, done: dict | None = None) -> str:
        """Copy `name` from `src` with every part it refers to (recursively, under fresh names)."""
        done = {} if done is None else done
        if name in done:
            return done[name]
        new = self.fresh(hint or name)
        done[name] = new
        self.put_bytes(new, src.trees_bytes(name))
        self.set_content_type(new, src.content_type(name))
        self.copy_rels(src, name, new, done)
        return new

    def copy_rels(self, src: Package, name: str, new: str, done: dict | None = None) -> None:
        """Give part `new` the relationships of src's `name`, same ids, their targets copied."""
        for rel in src.rels(name):
            target = src.target(name, rel)
            if target is None:
                self.add_rel(new, rel.get("Type"), None, external=rel.get("Target"), rid=rel.get("Id"))
            else:
                self.add_rel(new, rel.get("Type"), self.copy_part(src, target, done=done), rid=rel.get("Id"))

    def trees_bytes(self, name: str) -> bytes:
        from lxml import etree

        if name in self.trees and name in self.edited:
            return etree.tostring(self.trees[name], xml_declaration=True, encoding="UTF-8", standalone=True)
        return self.data[name]

    def referrers(self, name: str) -> list[str]:
        """The parts whose relationships point to `name`."""
        found = []
        for rels in [n for n in list(self.data) if n.endswith(".rels")]:
            owner = owner_of(rels)
            if any(self.target(owner, rel) == name for rel in self.rels(owner)):
                found.append(owner)
        return found

    def remove_tree(self, name: str) -> None:
        """Remove `name` and the parts it refers to that nothing else refers to."""
        targets = [t for t in (self.target(name, r) for r in self.rels(name)) if t]
        self.remove(name)
        for target in targets:
            if self.has(target) and not self.referrers(target):
                self.remove_tree(target)

    def save(self, path: Path) -> None:
        names = list(self.infos) + [n for n in self.data if n not in self.infos]
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in names:
                if name not in self.data:
                    continue
                old = self.infos.get(name)
                info = zipfile.ZipInfo(name, date_time=old.date_time if old else (1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = old.external_attr if old else 0o600 << 16
                archive.writestr(info, self.trees_bytes(name))
        Path(path).write_bytes(buffer.getvalue())


def rels_name(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def owner_of(rels: str) -> str:
    folder, base = posixpath.split(rels)
    return posixpath.join(posixpath.dirname(folder), base[: -len(".rels")])


def main_part(pkg: Package) -> str:
    rel = next(r for r in pkg.rels("") if r.get("Type", "").endswith("/officeDocument"))
    return pkg.target("", rel)


# --- document properties (docProps/core.xml), shared by the three office kinds -------------------

CORE = "docProps/core.xml"


def _core_props(pkg: Package) -> dict:
    if not pkg.has(CORE):
        return {}
    return {local(el): el for el in children(pkg.xml(CORE))}


def _put_core(rel: str, source: Path, name: str):
    def op(home: Path) -> None:
        from lxml import etree

        pkg = Package(home / rel)
        wanted = _core_props(Package(source)).get(name)
        if not pkg.has(CORE):
            raise ValueError("the document has no core properties part")
        root = pkg.xml(CORE, edit=True)
        for el in children(root):
            if local(el) == name:
                root.remove(el)
        if wanted is not None:
            root.append(copy.deepcopy(wanted))
        etree.cleanup_namespaces(root)
        pkg.save(home / rel)

    return op


def property_units(
    kind: str, rel: str, initial: Path, golden: Path, before: Package, after: Package
) -> list[Unit]:
    """One unit per document property (docProps/core.xml) the golden changed, unless incidental."""
    units = []
    if is_incidental(kind, CORE):
        return units
    old, new = _core_props(before), _core_props(after)
    for name in sorted(set(old) | set(new)):
        if is_incidental(kind, f"{CORE}:{name}"):
            continue
        was, now = old.get(name), new.get(name)
        if (was is None and now is None) or (was is not None and now is not None and same(was, now)):
            continue
        what = (
            f"{rel}: document property {name} {short(was.text if was is not None else None)} -> "
            f"{short(now.text if now is not None else None)}"
        )
        units.append(
            Unit(
                f"{kind}.property",
                rel,
                what,
                revert=_put_core(rel, initial, name),
                apply=_put_core(rel, golden, name),
            )
        )
    return units


def wrong_format(kind: str, rel: str, text_of) -> Corruption:
    """The file keeps its name but holds plain text (what "Save as" with the wrong filter gives)."""

    def op(home: Path) -> None:
        (home / rel).write_text(text_of(home / rel), encoding="utf-8")

    return Corruption(
        "corrupt.wrong_format", rel, f"{rel} holds {kind} text under the office file's name", op
    )


# --- workbooks ------------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return text.split()


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


# --- finding the units ----------------------------------------------------------------------------------


class _Side:
    """One home's workbook, read both ways: openpyxl (cells as a reward sees them) and XML."""

    def __init__(self, path: Path):
        import openpyxl

        self.path = path
        self.book = Book(path)
        self.wb = openpyxl.load_workbook(path)
        names = self.book.sheet_names()
        self.sheets = [n for n in names if n in self.wb.sheetnames]

    def ws(self, name):
        return self.wb[name] if name in self.sheets else None


def cell_facts(ws, row: int, col: int, blank: bool = False) -> dict:
    """What a reward can read of one cell: its value and each aspect of its style (`blank`: of an
    empty cell of the workbook, as in a sheet that does not exist yet)."""
    from openpyxl.cell.cell import Cell
    from openpyxl.styles.cell_style import StyleArray

    wb = ws.parent
    cell = None if blank else ws._cells.get((row, col))
    cell = cell if cell is not None else Cell(ws, row=row, column=col)
    style = cell._style if cell._style is not None else StyleArray()
    default = wb._fonts[0] if wb._fonts else None
    font = wb._fonts[style.fontId] if style.fontId < len(wb._fonts) else default

    def attr(name, fallback=None):
        value = getattr(font, name, None) if font is not None else None
        if value is None and default is not None and name in ("sz", "name", "color"):
            value = getattr(default, name, None)
        return fallback if value is None else value

    def colour(c):
        return None if c is None else (c.type, c.value, c.tint)

    value = cell.value
    text = getattr(value, "text", None)
    return {
        "value": (cell.data_type, type(value).__name__, text if text is not None else value),
        "number_format": cell.number_format,
        "font.bold": bool(attr("b")),
        "font.italic": bool(attr("i")),
        "font.underline": attr("u"),
        "font.strike": bool(attr("strike")),
        "font.size": attr("sz"),
        "font.colour": colour(attr("color")),
        "font.name": attr("name"),
        "font.vertAlign": attr("vertAlign"),
        "fill": wb._fills[style.fillId] if style.fillId < len(wb._fills) else None,
        "border": wb._borders[style.borderId] if style.borderId < len(wb._borders) else None,
        "alignment": wb._alignments[style.alignmentId] if style.alignmentId < len(wb._alignments) else None,
        "protection": wb._protections[style.protectionId]
        if style.protectionId < len(wb._protections)
        else None,
    }


def _shown(aspect: str, facts: dict):
    value = facts[aspect]
    if aspect == "value":
        return value[2]
    if aspect in ("fill", "border", "alignment", "protection"):
        return type(value).__name__ if value is not None else None
    return value


class _Plan(OfficePlan):
    """Everything compared between the two homes' versions of one workbook."""

    load = staticmethod(Book)

    def __init__(self, rel: str, initial: Path, golden: Path):
        super().__init__(rel, initial, golden)
        self.i, self.g = _Side(initial), _Side(golden)
        self.pairs = self._match()  # golden sheet -> initial sheet (None: added)
        self.removed = [s for s in self.i.sheets if s not in self.pairs.values()]
        self.changed_cells: set[tuple[str, str]] = set()  # (golden sheet, coord)
        self.ranged: list[tuple] = []  # features with a range the golden added or changed (for slips)

    def _match(self) -> dict:
        pairs = {g: g for g in self.g.sheets if g in self.i.sheets}
        left_i = [s for s in self.i.sheets if s not in pairs]
        for g in [s for s in self.g.sheets if s not in pairs]:

            def overlap(i_name, g_name=g):
                a = {(k, c.value) for k, c in self.i.wb[i_name]._cells.items() if c.value is not None}
                b = {(k, c.value) for k, c in self.g.wb[g_name]._cells.items() if c.value is not None}
                return len(a & b) / max(1, len(a | b))

            best = max(left_i, key=overlap, default=None)
            if best is not None and overlap(best) >= 0.3:
                pairs[g] = best
                left_i.remove(best)
            else:
                pairs[g] = None
        return pairs

    def i_name(self, g_name):
        return self.pairs.get(g_name)

    def g_name(self, i_name):
        return next((g for g, i in self.pairs.items() if i == i_name), None)

    def add(self, unit: Unit) -> Unit:
        self.units.append(unit)
        return unit

    def ensure(self, g_sheet: str):
        """For an op on the initial: the golden sheet's counterpart there, made empty if missing."""
        order = self.g.sheets

        def fn(dst: Book) -> str:
            name = self.i_name(g_sheet) or g_sheet
            ensure_sheet(dst, name, order, lambda x: self.i_name(x) or x)
            return name

        return fn

    # -- units -----------------------------------------------------------------------------------

    def find(self) -> list[Unit]:
        self._sheet_units()
        for g_sheet in self.g.sheets:
            start = len(self.units)
            self._cell_units(g_sheet)
            self._feature_units(g_sheet)
            self._chart_units(g_sheet)
            if self.i_name(g_sheet) is None:
                self._container(g_sheet, start)
        self._name_units()
        self.units += property_units("xlsx", self.rel, self.initial, self.golden, self.i.book, self.g.book)
        for unit, inner in self.containers:  # a container is a unit when something lies outside it
            if len(inner) > 1 and not any(id(u) not in inner for u in self.units):  # parts, nothing else
                self.units.remove(unit)
        return self.units

    def _contain(self, unit: Unit, start: int) -> None:
        """`unit` holds the units found from `start` on: it goes first among them."""
        self.units.insert(start, unit)
        self.containers.append((unit, {id(u) for u in self.units[start:]}))

    def _container(self, g_sheet: str, start: int) -> None:
        i_order = self.i.sheets

        def revert(dst, src):
            remove_sheet(dst, g_sheet)

        def apply(dst, src):
            after = preceding(self.g.sheets, g_sheet, lambda x: (self.i_name(x) or x) in dst.sheet_names())
            import_sheet(src, g_sheet, dst, g_sheet, (self.i_name(after) or after) if after else None)

        assert i_order is not None
        unit = Unit(
            "xlsx.sheet.added",
            self.rel,
            f"{self.rel}: sheet {g_sheet!r} added",
            revert=self.op("golden", revert),
            apply=self.op("initial", apply),
        )
        self._contain(unit, start)

    def _sheet_units(self) -> None:
        rel = self.rel
        for i_sheet in self.removed:

            def revert(dst, src, i_sheet=i_sheet):
                after = preceding(self.i.sheets, i_sheet, lambda x: self.g_name(x) in dst.sheet_names())
                import_sheet(src, i_sheet, dst, i_sheet, self.g_name(after) if after else None)

            def apply(dst, src, i_sheet=i_sheet):
                remove_sheet(dst, i_sheet)

            self.add(
                Unit(
                    "xlsx.sheet.removed",
                    rel,
                    f"{rel}: sheet {i_sheet!r} deleted",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )
        for g_sheet, i_sheet in self.pairs.items():
            if i_sheet is not None and i_sheet != g_sheet:

                def revert(dst, src, g=g_sheet, i=i_sheet):
                    rename_sheet(dst, g, i)

                def apply(dst, src, g=g_sheet, i=i_sheet):
                    rename_sheet(dst, i, g)

                self.add(
                    Unit(
                        "xlsx.sheet.renamed",
                        rel,
                        f"{rel}: sheet {i_sheet!r} renamed {g_sheet!r}",
                        revert=self.op("golden", revert),
                        apply=self.op("initial", apply),
                    )
                )
        matched_i = [s for s in self.i.sheets if self.g_name(s)]
        for i_sheet in moved_items(matched_i, [self.pairs[g] for g in self.g.sheets if self.pairs[g]]):
            g_sheet = self.g_name(i_sheet)

            def revert(dst, src, g=g_sheet, i=i_sheet):
                after = preceding(matched_i, i, lambda x: True)
                move_sheet(dst, g, self.g_name(after) if after else None)

            def apply(dst, src, g=g_sheet, i=i_sheet):
                matched_g = [x for x in self.g.sheets if self.pairs[x]]
                after = preceding(matched_g, g, lambda x: True)
                move_sheet(dst, i, self.pairs[after] if after else None)

            self.add(
                Unit(
                    "xlsx.sheet.moved",
                    rel,
                    f"{rel}: sheet {g_sheet!r} moved",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )

    def _cell_units(self, g_sheet: str) -> None:
        i_sheet = self.i_name(g_sheet)
        gws, iws = self.g.wb[g_sheet], self.i.ws(i_sheet)
        coords = set(gws._cells) | (set(iws._cells) if iws is not None else set())
        where = "'" + g_sheet.replace("'", "''") + "'"
        for row, col in sorted(coords):
            after = cell_facts(gws, row, col)
            before = cell_facts(iws, row, col) if iws is not None else cell_facts(gws, row, col, blank=True)
            coord = _ref(row, col)
            for aspect in after:
                if before[aspect] == after[aspect]:
                    continue
                self.changed_cells.add((g_sheet, coord))
                what = (
                    f"{self.rel}: {where}!{coord} {aspect} {short(_shown(aspect, before))} -> "
                    f"{short(_shown(aspect, after))}"
                )
                self.add(self._cell_unit(g_sheet, coord, aspect, what, before, after))

    def _cell_unit(self, g_sheet, coord, aspect, what, before, after) -> Unit:
        i_sheet = self.i_name(g_sheet)
        ensure = self.ensure(g_sheet)
        kind = "xlsx.cell." + aspect
        if aspect == "value":
            old, new = _value_of(self.i.ws(i_sheet), coord), _value_of(self.g.wb[g_sheet], coord)

            def revert(dst, src):
                put_value(dst, g_sheet, coord, old)

            def apply(dst, src):
                put_value(dst, ensure(dst), coord, new)

        else:

            def revert(dst, src):
                put_style(src, i_sheet, dst, g_sheet, coord, aspect)

            def apply(dst, src):
                put_style(src, g_sheet, dst, ensure(dst), coord, aspect)

        return Unit(kind, self.rel, what, revert=self.op("golden", revert), apply=self.op("initial", apply))

    def _feature_units(self, g_sheet: str) -> None:
        i_sheet = self.i_name(g_sheet)
        g_root = self.g.book.sheet(g_sheet)
        i_root = self.i.book.sheet(i_sheet) if i_sheet else _blank_sheet()
        ensure = self.ensure(g_sheet)
        where = f"{self.rel}: sheet {g_sheet!r}"

        def unit(kind, what, fn):
            """fn(src_root, dst_root, src, dst) makes the feature in dst what it is in src."""

            def revert(dst, src):
                fn(src.sheet(i_sheet) if i_sheet else None, dst.sheet(g_sheet, edit=True), src, dst)

            def apply(dst, src):
                fn(src.sheet(g_sheet), dst.sheet(ensure(dst), edit=True), src, dst)

            self.add(
                Unit(
                    kind,
                    self.rel,
                    f"{where} {what}",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )

        if _pane(i_root) != _pane(g_root):
            unit(
                "xlsx.freeze",
                f"frozen panes {_pane(i_root)} -> {_pane(g_root)}",
                lambda s, d, src, dst: put_pane(s, d),
            )
        for container, tag, kind in (
            ("dataValidations", "dataValidation", "xlsx.validation"),
            (None, "conditionalFormatting", "xlsx.conditional_format"),
            ("mergeCells", "mergeCell", "xlsx.merge"),
        ):
            before, after = _keyed(i_root, container, tag), _keyed(g_root, container, tag)
            for key in sorted(set(before) | set(after)):
                was, now = before.get(key), after.get(key)
                if (
                    was is not None
                    and now is not None
                    and self._feature(was, self.i) == self._feature(now, self.g)
                ):
                    continue
                state = "added" if was is None else "removed" if now is None else "changed"
                if now is not None and tag != "mergeCell":
                    self.ranged.append(("feature", g_sheet, container, tag, key))
                unit(
                    kind,
                    f"{tag} {key} {state}",
                    lambda s, d, src, dst, c=container, t=tag, k=key: put_keyed(src, s, dst, d, c, t, k),
                )
        was, now = child(i_root, "autoFilter"), child(g_root, "autoFilter")
        if (was is None) != (now is None) or (was is not None and not same(was, now)):
            unit(
                "xlsx.autofilter",
                "auto-filter " + ("added" if was is None else "removed" if now is None else "changed"),
                lambda s, d, src, dst: put_autofilter(s, d),
            )
        before, after = _cols(i_root), _cols(g_root)
        for index in sorted(set(before) | set(after)):
            if _col_facts(before.get(index)) != _col_facts(after.get(index)):
                unit(
                    "xlsx.column",
                    f"column {_ref(1, index)[:-1]} {_col_facts(before.get(index))} -> "
                    f"{_col_facts(after.get(index))}",
                    lambda s, d, src, dst, n=index: put_col(s, d, n),
                )
        rows = {
            int(r.get("r"))
            for root in (i_root, g_root)
            for r in children(_sheet_data(root), "row")
            if r.get("r")
        }
        for number in sorted(rows):
            was, now = _row_facts(_row(i_root, number, False)), _row_facts(_row(g_root, number, False))
            if was != now:
                unit(
                    "xlsx.row",
                    f"row {number} {was} -> {now}",
                    lambda s, d, src, dst, n=number: put_row(s, d, n),
                )

    def _feature(self, el, side: _Side):
        """A feature element as a value; a conditional format's rules with their formats resolved."""
        if local(el) != "conditionalFormatting":
            return canon(el)
        rules = []
        for rule in children(el, "cfRule"):
            dxf = side.book.style_item("dxfs", int(rule.get("dxfId"))) if rule.get("dxfId") else None
            rules.append((canon(rule, skip=("dxfId", "priority")), canon(dxf) if dxf is not None else None))
        return tuple(rules)

    def _chart_units(self, g_sheet: str) -> None:
        i_sheet = self.i_name(g_sheet)
        g_charts = charts_of(self.g.book, g_sheet)
        i_charts = charts_of(self.i.book, i_sheet) if i_sheet else []
        where = f"{self.rel}: sheet {g_sheet!r}"
        ensure = self.ensure(g_sheet)
        g_roots = [self.g.book.xml(part) for _, part in g_charts]
        i_roots = [self.i.book.xml(part) for _, part in i_charts]
        for n, root in enumerate(g_roots):
            if n >= len(i_roots) or not same(root, i_roots[n]):
                self.ranged.append(("chart", g_sheet, n))
        for n in range(len(i_charts), len(g_charts)):  # added charts: containers
            start = len(self.units)

            def drop(dst, src, n=n):
                remove_chart(dst, g_sheet, n)

            def add(dst, src, n=n):
                add_chart(src, g_sheet, n, dst, ensure(dst))

            whole = Unit(
                "xlsx.chart",
                self.rel,
                f"{where} chart {n + 1} added",
                revert=self.op("golden", drop),
                apply=self.op("initial", add),
            )
            parts = chart_parts(g_roots[n])
            for key in parts:

                def revert(dst, src, n=n, key=key):
                    remove_chart_part(dst.xml(charts_of(dst, g_sheet)[n][1], edit=True), key)

                def apply(dst, src, n=n, key=key, keys=tuple(parts)):
                    part = add_chart(src, g_sheet, n, dst, ensure(dst))
                    root = dst.xml(part, edit=True)
                    for other in sorted(
                        (k for k in keys if k[0] in ("title", "axis_title", "series")), reverse=True
                    ):
                        if other != key:
                            remove_chart_part(root, other)

                kind = f"xlsx.chart.{key[0]}"
                what = f"{where} chart {n + 1} (added) {key[0].replace('_', ' ')}" + (
                    f" {key[1] + 1}" if len(key) > 1 else ""
                )
                self.add(
                    Unit(
                        kind,
                        self.rel,
                        what,
                        revert=self.op("golden", revert),
                        apply=self.op("initial", apply)
                        if key[0] in ("title", "axis_title", "series")
                        else None,
                    )
                )
            self._contain(whole, start)
        for n in range(len(g_charts), len(i_charts)):  # removed charts

            def revert(dst, src, n=n):
                add_chart(src, i_sheet, n, dst, g_sheet)

            def apply(dst, src, n=n):
                remove_chart(dst, i_sheet, n)

            self.add(
                Unit(
                    "xlsx.chart",
                    self.rel,
                    f"{where} chart {n + 1} deleted",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )
        for n in range(min(len(g_charts), len(i_charts))):  # charts in both: their parts
            before, after = chart_parts(i_roots[n]), chart_parts(g_roots[n])
            keys = [k for k in after if k[0] in ("title", "axis_title", "series")]
            keys += [k for k in before if k not in keys and k[0] in ("title", "axis_title", "series")]
            for key in keys:
                was, now = before.get(key), after.get(key)
                if was is not None and now is not None and same(was, now):
                    continue

                def revert(dst, src, n=n, key=key):
                    put_chart_part(
                        src.xml(charts_of(src, i_sheet)[n][1]),
                        dst.xml(charts_of(dst, g_sheet)[n][1], edit=True),
                        key,
                    )

                def apply(dst, src, n=n, key=key):
                    put_chart_part(
                        src.xml(charts_of(src, g_sheet)[n][1]),
                        dst.xml(charts_of(dst, i_sheet)[n][1], edit=True),
                        key,
                    )

                state = "added" if was is None else "removed" if now is None else "changed"
                what = f"{where} chart {n + 1} {key[0].replace('_', ' ')}" + (
                    f" {key[1] + 1}" if len(key) > 1 else ""
                )
                self.add(
                    Unit(
                        f"xlsx.chart.{key[0]}",
                        self.rel,
                        f"{what} {state}",
                        revert=self.op("golden", revert),
                        apply=self.op("initial", apply),
                    )
                )
            was, now = (
                [_kind_facts(k) for k in _chart_kinds(i_roots[n])],
                [_kind_facts(k) for k in _chart_kinds(g_roots[n])],
            )
            if was and now and was != now:

                def revert(dst, src, n=n):
                    put_chart_type(
                        src.xml(charts_of(src, i_sheet)[n][1]),
                        dst.xml(charts_of(dst, g_sheet)[n][1], edit=True),
                    )

                def apply(dst, src, n=n):
                    put_chart_type(
                        src.xml(charts_of(src, g_sheet)[n][1]),
                        dst.xml(charts_of(dst, i_sheet)[n][1], edit=True),
                    )

                self.add(
                    Unit(
                        "xlsx.chart.type",
                        self.rel,
                        f"{where} chart {n + 1} type {was[0][0]} -> {now[0][0]}",
                        revert=self.op("golden", revert),
                        apply=self.op("initial", apply),
                    )
                )

    def _name_units(self) -> None:
        before, after = _names(self.i.book), _names(self.g.book)
        i_keys = {
            (name, self.g_name(scope) if scope else None): key for key in before for name, scope in [key]
        }
        for g_key in sorted(set(after) | set(i_keys), key=str):
            i_key = i_keys.get(g_key, (g_key[0], self.i_name(g_key[1]) if g_key[1] else None))
            was, now = before.get(i_key), after.get(g_key)
            if (
                was is not None
                and now is not None
                and canon(was, ("localSheetId",)) == canon(now, ("localSheetId",))
            ):
                continue

            def revert(dst, src, i_key=i_key, g_key=g_key):
                put_name(src, dst, i_key, g_key[1])

            def apply(dst, src, i_key=i_key, g_key=g_key):
                put_name(src, dst, g_key, i_key[1])

            state = "added" if was is None else "removed" if now is None else "changed"
            self.add(
                Unit(
                    "xlsx.name",
                    self.rel,
                    f"{self.rel}: defined name {g_key[0]!r} {state}",
                    revert=self.op("golden", revert),
                    apply=self.op("initial", apply),
                )
            )


def _value_of(ws, coord: str):
    if ws is None:
        return None
    row, col = _coord(coord)
    cell = ws._cells.get((row, col))
    return cell.value if cell is not None else None


@cache
def _plan(rel: str, initial: str, golden: str) -> _Plan:
    plan = _Plan(rel, Path(initial), Path(golden))
    plan.find()
    return plan


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    return _plan(rel, str(initial), str(golden)).units


# --- corruptions -----------------------------------------------------------------------------------------


@cache
def _kit() -> dict:
    """The reward kit's formula evaluator (skills/kit/guest/sheets.py, bound read-only by the host):
    its functions are read as source, the way the kit ships them into scripts."""
    import ast
    import os

    path = Path(os.environ.get("MUTATOR_KIT", KIT)) / "sheets.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wanted = {"find_sheet", "is_formula", "computed_value", "evaluate_formula"}
    namespace: dict = {"HOME": Path("/home/user")}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in wanted:
            exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
    return namespace


_RANGE = re.compile(r"(\$?)([A-Z]{1,3})(\$?)(\d+):(\$?)([A-Z]{1,3})(\$?)(\d+)")


def off_by_one(formula: str, at_start: bool = False) -> str | None:
    """The formula with its first range one row (or one column) short, A2:A10 -> A2:A9 (`at_start`:
    A3:A10), and every range of the same extent with it (SUMIFS's ranges stay the same size, as a
    real slip keeps them)."""
    from openpyxl.utils.cell import column_index_from_string as index
    from openpyxl.utils.cell import get_column_letter as letter

    found = [m for m in _RANGE.finditer(formula) if formula[: m.start()].count('"') % 2 == 0]
    for first in found:
        _, c1, _, r1, _, c2, _, r2 = first.groups()
        if int(r2) > int(r1):
            same_extent = [m for m in found if (m.group(4), m.group(8)) == (r1, r2)]
            parts = [list(m.groups()) for m in same_extent]
            for g in parts:
                g[3 if at_start else 7] = str(int(r1) + 1 if at_start else int(r2) - 1)
        elif index(c2) > index(c1):
            same_extent = [m for m in found if (m.group(2), m.group(6)) == (c1, c2)]
            parts = [list(m.groups()) for m in same_extent]
            for g in parts:
                g[1 if at_start else 5] = letter(index(c1) + 1 if at_start else index(c2) - 1)
        else:
            continue
        out, at = [], 0
        for m, g in zip(same_extent, parts, strict=True):
            out += [formula[at : m.start()], "".join(g[:4]) + ":" + "".join(g[4:])]
            at = m.end()
        return "".join(out) + formula[at:]
    return None


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    import openpyxl

    plan = _plan(rel, str(initial), str(golden)) if initial is not None else None
    wb = plan.g.wb if plan else openpyxl.load_workbook(golden)
    found: list[Corruption] = []

    def in_scope(sheet, coord):
        return plan is None or (sheet, coord) in plan.changed_cells

    formulas = [
        (ws.title, cell.coordinate, cell.value)
        for ws in wb.worksheets
        for cell in _cells_in_order(ws)
        if isinstance(cell.value, str) and cell.value.startswith("=") and in_scope(ws.title, cell.coordinate)
    ]
    for sheet, coord, formula in formulas:
        value = _value(golden, wb, sheet, coord, formula)
        if value is None:
            continue
        found.append(
            Corruption(
                "corrupt.formula_to_value",
                rel,
                f"{rel}: '{sheet}'!{coord} {formula} replaced by its value {short(value)}",
                _set(rel, sheet, coord, value),
            )
        )
        break
    slips = [(s, c, f, off_by_one(f, at_start)) for s, c, f in formulas for at_start in (False, True)]
    slips = [
        (f"'{s}'!{c} {f} -> {new}", _set(rel, s, c, new), (s, c, f, new)) for s, c, f, new in slips if new
    ]
    differs = [_differs(golden, wb, *slip[2]) for slip in slips]
    shown = [slip for slip, d in zip(slips, differs, strict=True) if d]  # it changes what the cell shows
    unknown = [slip for slip, d in zip(slips, differs, strict=True) if d is None]
    options = shown[:1] + _range_slips(rel, golden, plan) + unknown
    if options:
        found.append(Corruption("corrupt.off_by_one", rel, f"{rel}: {options[0][0]}", options[0][1]))
    counts = {}
    for sheet, _ in plan.changed_cells if plan else ():
        counts[sheet] = counts.get(sheet, 0) + 1
    working = max(counts, key=counts.get) if counts else wb.active.title  # the sheet the task works on
    found.append(wrong_format("CSV", rel, lambda path: _as_csv(wb[working])))
    if plan is not None:
        extra = _bystander(plan)
        if extra is not None:
            sheet, coord, value, new = extra
            found.append(
                Corruption(
                    "corrupt.extra_change",
                    rel,
                    f"{rel}: '{sheet}'!{coord}, which the task leaves alone, "
                    f"changed {short(value)} -> {short(new)}",
                    _set(rel, sheet, coord, new),
                )
            )
    return found


def _range_slips(rel: str, golden: Path, plan: _Plan | None) -> list[tuple]:
    """Off-by-one slips in the ranges of features the golden made: a data validation's or a
    conditional format's cells, a chart's series (every range of the chart one row short, as when
    the selection missed the last row); (what, op) each."""
    book = plan.g.book if plan else Book(golden)
    ranged = (
        plan.ranged
        if plan
        else [
            *(
                ("feature", s, c, t, k)
                for s in book.sheet_names()
                for c, t in (("dataValidations", "dataValidation"), (None, "conditionalFormatting"))
                for k in _keyed(book.sheet(s), c, t)
            ),
            *(("chart", s, n) for s in book.sheet_names() for n in range(len(charts_of(book, s)))),
        ]
    )
    wb = plan.g.wb if plan else None
    found = []
    for entry in ranged:
        if entry[0] == "feature":
            _, sheet, container, tag, key = entry
            for at_start in (False, True):
                shorter = off_by_one(key.split()[-1], at_start)
                if shorter is None:
                    continue
                if tag == "conditionalFormatting" and not _format_shows(
                    golden, wb, book, sheet, key, key.split()[-1], shorter
                ):
                    continue  # the cells the slip leaves out show no format either way: no slip at all
                new = " ".join([*key.split()[:-1], shorter])
                found.append((f"'{sheet}' {tag} {key} -> {new}", _slip_op(rel, sheet, entry, new)))
                break
        else:
            _, sheet, n = entry
            refs = [
                f.text
                for f in book.xml(charts_of(book, sheet)[n][1]).iter(q(C, "f"))
                if off_by_one(f.text or "")
            ]
            if refs:
                what = f"'{sheet}' chart {n + 1} ranges one row short ({refs[0]} -> {off_by_one(refs[0])})"
                found.append((what, _slip_op(rel, sheet, entry, None)))
    return found


def _format_shows(golden: Path, wb, book: Book, sheet: str, key: str, area: str, shorter: str) -> bool:
    """Some cell of `area` that `shorter` leaves out meets a rule of the conditional format `key`
    (cellIs and expression rules are evaluated with the kit; any other kind of rule counts as met)."""
    import operator

    from openpyxl.formula.translate import Translator
    from openpyxl.utils.cell import range_boundaries

    if wb is None:
        return True
    c0, r0, c1, r1 = range_boundaries(area)
    d0, s0, d1, s1 = range_boundaries(shorter)
    left_out = [
        _ref(r, c)
        for r in range(r0, r1 + 1)
        for c in range(c0, c1 + 1)
        if not (s0 <= r <= s1 and d0 <= c <= d1)
    ]
    compare = {
        "greaterThan": operator.gt,
        "lessThan": operator.lt,
        "greaterThanOrEqual": operator.ge,
        "lessThanOrEqual": operator.le,
        "equal": operator.eq,
        "notEqual": operator.ne,
    }
    element = _keyed(book.sheet(sheet), None, "conditionalFormatting")[key]
    for rule in children(element, "cfRule"):
        formulas = [f.text or "" for f in children(rule, "formula")]
        if rule.get("type") not in ("cellIs", "expression") or not formulas:
            return True
        for coord in left_out:
            shown = [
                _evaluate(
                    golden, wb, sheet, Translator("=" + f, origin=_ref(r0, c0)).translate_formula(coord)
                )
                for f in formulas
            ]
            if rule.get("type") == "expression":
                if shown[0] is None or shown[0]:
                    return True
                continue
            value = wb[sheet][coord].value
            value = (
                _value(golden, wb, sheet, coord, value)
                if isinstance(value, str) and value.startswith("=")
                else value
            )
            numbers = [v for v in [value, *shown] if isinstance(v, int | float) and not isinstance(v, bool)]
            if len(numbers) != 1 + len(shown):
                return True  # not numbers: cannot tell
            if rule.get("operator") in compare:
                if compare[rule.get("operator")](numbers[0], numbers[1]):
                    return True
            elif rule.get("operator") in ("between", "notBetween") and len(numbers) == 3:
                inside = min(numbers[1:]) <= numbers[0] <= max(numbers[1:])
                if inside == (rule.get("operator") == "between"):
                    return True
            else:
                return True
    return False


def _slip_op(rel: str, sheet: str, entry: tuple, new: str | None):
    def op(home: Path) -> None:
        book = Book(home / rel)
        if entry[0] == "feature":
            _, _, container, tag, key = entry
            _keyed(book.sheet(sheet, edit=True), container, tag)[key].set("sqref", new)
        else:
            root = book.xml(charts_of(book, sheet)[entry[2]][1], edit=True)
            for f in root.iter(q(C, "f")):
                f.text = off_by_one(f.text or "") or f.text
            for cached in list(root.iter(q(C, "numCache"), q(C, "strCache"))):
                cached.getparent().remove(cached)
        book.save(home / rel)

    return op


def _cells_in_order(ws):
    return [ws._cells[k] for k in sorted(ws._cells)]


@cache
def _values(path: Path):
    import openpyxl

    return openpyxl.load_workbook(path, data_only=True)


def _value(path: Path, wb, sheet: str, coord: str, formula: str):
    """The formula's value: LibreOffice's cached one if the file has it, else the kit's evaluation."""
    cached = _values(path)[sheet][coord].value
    return cached if cached is not None else _evaluate(path, wb, sheet, formula)


def _evaluate(path: Path, wb, sheet: str, formula: str):
    """The kit's value of `formula` on `sheet` (None when it cannot say), as Calc would show it."""
    try:
        value = _kit()["evaluate_formula"]({"f": wb, "v": _values(path)}, sheet, formula)
    except (ValueError, KeyError, OSError, SyntaxError, ZeroDivisionError, TypeError, RecursionError):
        return None
    if isinstance(value, float):
        value = float(f"{value:.15g}")
        return int(value) if value.is_integer() else value
    return value


def _differs(path: Path, wb, sheet: str, coord: str, formula: str, shorter: str) -> bool | None:
    """Whether the slip shows a different value (None: the kit cannot tell). A slip that shows the
    same value is an equivalent mutant: any reward rightly passes it."""
    was, now = _value(path, wb, sheet, coord, formula), _evaluate(path, wb, sheet, shorter)
    return None if was is None or now is None else was != now


def _set(rel: str, sheet: str, coord: str, value):
    def op(home: Path) -> None:
        book = Book(home / rel)
        put_value(book, sheet, coord, value)
        book.save(home / rel)

    return op


def _as_csv(ws) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in ws.iter_rows(values_only=True):
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _bystander(plan: _Plan):
    """A data cell (below a header row, not a formula) the golden left alone: the middle one of the
    numbers in the sheets the task works on, else of the text cells; and a changed value for it."""
    touched = {s for s, _ in plan.changed_cells} or set(plan.g.sheets)
    numbers, texts = [], []
    for sheet in [s for s in plan.g.sheets if plan.i_name(s)]:
        gws, iws = plan.g.wb[sheet], plan.i.wb[plan.i_name(sheet)]
        for (row, col), cell in sorted(gws._cells.items()):
            value = cell.value
            if (
                row < 2
                or value is None
                or (sheet, cell.coordinate) in plan.changed_cells
                or cell.data_type == "f"
            ):
                continue
            other = iws._cells.get((row, col))
            if other is None or other.value != value:
                continue
            if isinstance(value, int | float) and not isinstance(value, bool):
                numbers.append((sheet in touched, sheet, cell.coordinate, value))
            elif isinstance(value, str) and value.strip():
                texts.append((sheet in touched, sheet, cell.coordinate, value))
    for pool in (numbers, texts):
        preferred = [x for x in pool if x[0]] or pool
        if preferred:
            _, sheet, coord, value = preferred[len(preferred) // 2]
            new = value + 1 if isinstance(value, int | float) else value + " (edited)"
            return sheet, coord, value, new
    return None
