"""Finding a document's units: the two homes' versions compared block by block, section by section
and style by style."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

from mutator.core import OfficePlan, Unit
from mutator.docs.blocks import (
    HEADERS,
    NOT_FORMAT,
    PARA_ASPECTS,
    PPR_ORDER,
    RPR_ORDER,
    RUN_ASPECTS,
    _source,
    align,
    blocks,
    q,
    runs_of,
    table_cells,
    text_of,
)
from mutator.docs.ops import (
    _hf_facts,
    _pr_facts,
    _props,
    _put_defaults,
    _put_style,
    _sect_facts,
    _styles_el,
    _table_format,
    put_block,
    put_content,
    put_hf,
    put_props,
    put_sect,
    put_table_format,
)
from mutator.office import property_units
from mutator.ooxml import Package, child, children, local, same, short

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
