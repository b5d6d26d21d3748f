"""A workbook's cell and sheet-feature units: what a reward can read of a cell (its value and
each aspect of its style), and the features of a sheet's XML (panes, validations, conditional
formats, merges, auto-filter, columns, rows). A mixin of the sheets plan (plan.py)."""

from __future__ import annotations

from pathlib import Path

from mutator.core import Unit
from mutator.ooxml import canon, child, children, local, same, short
from mutator.sheets.book import Book, _coord, _ref, _row, _sheet_data
from mutator.sheets.cell_ops import put_style, put_value
from mutator.sheets.sheet_ops import (
    _blank_sheet,
    _col_facts,
    _cols,
    _keyed,
    _pane,
    _row_facts,
    put_autofilter,
    put_col,
    put_keyed,
    put_pane,
    put_row,
)


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


def _value_of(ws, coord: str):
    if ws is None:
        return None
    row, col = _coord(coord)
    cell = ws._cells.get((row, col))
    return cell.value if cell is not None else None


class CellUnits:
    """Cell and feature units of one golden sheet; `self` is the plan (plan.py)."""

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
