"""Finding a deck's units: matched slides compared shape by shape, added and removed slides."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

from mutator.core import OfficePlan, Unit
from mutator.decks.ops import (
    _format_facts,
    _run_facts,
    _text_format,
    _xfrm,
    copy_slide,
    move_slide,
    put_body,
    put_format,
    put_layout,
    put_notes,
    put_run_aspect,
    put_shape,
    put_text_format,
    put_xfrm,
    remove_slide,
)
from mutator.decks.slides import (
    NOISE,
    RUN_ATTRS,
    RUN_CHILDREN,
    _body,
    _is_title,
    _runs,
    _source,
    match_shapes,
    match_slides,
    notes_text,
    qa,
    shape_text,
    shapes_of,
    slide_title,
)
from mutator.office import property_units
from mutator.ooxml import Package, canon, child, children, local, moved_items, preceding, same, short

# --- finding the units --------------------------------------------------------------------------------


class _Plan(OfficePlan):
    load = staticmethod(_source)

    def __init__(self, rel: str, initial: Path, golden: Path):
        super().__init__(rel, initial, golden)  # touched: golden slides some unit changes
        self.i, self.g = _source(initial), _source(golden)
        self.islides, self.gslides = list(self.i.slides), list(self.g.slides)
        self.pairs = match_slides(self.islides, self.gslides)  # golden -> initial

    def find(self) -> list[Unit]:
        self._slides()
        for j, i in sorted(self.pairs.items()):
            self._slide(i, j)
        self.units += property_units(
            "pptx", self.rel, self.initial, self.golden, Package(self.initial), Package(self.golden)
        )
        for unit, inner in self.containers:
            if len(inner) > 1 and not any(id(u) not in inner for u in self.units):  # parts, nothing else
                self.units.remove(unit)
        return self.units

    def _name(self, slide) -> str:
        return short(slide_title(slide) or "untitled", 40)

    def _slides(self) -> None:
        g_of = {i: j for j, i in self.pairs.items()}
        for j, slide in enumerate(self.gslides):
            if j in self.pairs:
                continue
            after = preceding(list(range(len(self.gslides))), j, lambda x: x in self.pairs)
            start = len(self.units)

            def apply(dst, src, j=j, after=after, shapes=None, notes=True):
                position = self.pairs[after] + 1 if after is not None else 0
                copy_slide(src, j, dst, position, shapes, notes)

            unit = self.unit(
                "pptx.slide.added",
                f"slide {j + 1} {self._name(slide)} added",
                lambda dst, src, j=j: remove_slide(dst, j),
                apply,
                j,
            )
            for n, el in enumerate(shapes_of(slide)):
                text = short(" ".join(" ".join(shape_text(el)).split()), 40)

                def revert(dst, src, j=j, n=n):
                    el = shapes_of(dst.slides[j])[n]
                    el.getparent().remove(el)

                self.unit(
                    "pptx.slide.shape",
                    f"slide {j + 1} (added) shape {n + 1} {text}",
                    revert,
                    lambda dst, src, n=n, apply=apply: apply(dst, src, shapes={n}, notes=False),
                    j,
                )
            if notes_text(slide):
                self.unit(
                    "pptx.notes",
                    f"slide {j + 1} (added) speaker notes",
                    lambda dst, src, j=j: _clear_notes(dst.slides[j]),
                    lambda dst, src, apply=apply: apply(dst, src, shapes=set(), notes=True),
                    j,
                )
            self.containers.append((unit, {id(u) for u in self.units[start:]}))
        for i, slide in enumerate(self.islides):
            if i in g_of:
                continue
            after = preceding(list(range(len(self.islides))), i, lambda x: x in g_of)

            def revert(dst, src, i=i, after=after):
                copy_slide(src, i, dst, g_of[after] + 1 if after is not None else 0)

            self.unit(
                "pptx.slide.removed",
                f"slide {self._name(slide)} deleted",
                revert,
                lambda dst, src, i=i: remove_slide(dst, i),
            )
        matched_i = sorted(g_of)
        # A move is undone (or made) next to the nearest slide that kept its place: next to a slide
        # that moved too, it can land where it already is, and the mutant is the golden deck.
        moved = moved_items(matched_i, [self.pairs[j] for j in sorted(self.pairs)])
        for i in moved:
            j = g_of[i]

            def revert(dst, src, i=i, j=j):
                after = preceding(matched_i, i, lambda x: x not in moved)
                move_slide(dst, j, g_of[after] if after is not None else None)

            def apply(dst, src, i=i, j=j):
                after = preceding(sorted(self.pairs), j, lambda x: self.pairs[x] not in moved)
                move_slide(dst, i, self.pairs[after] if after is not None else None)

            self.unit(
                "pptx.slide.moved",
                f"slide {self._name(self.gslides[j])} moved to position {j + 1}",
                revert,
                apply,
                j,
            )

    def _slide(self, i: int, j: int) -> None:
        a, b = self.islides[i], self.gslides[j]
        where = f"slide {j + 1} {self._name(b)}"
        if a.slide_layout.name != b.slide_layout.name:
            self.unit(
                "pptx.slide.layout",
                f"{where} layout {a.slide_layout.name!r} -> {b.slide_layout.name!r}",
                lambda dst, src: put_layout(src.slides[i], dst, dst.slides[j]),
                lambda dst, src: put_layout(src.slides[j], dst, dst.slides[i]),
                j,
            )
        if notes_text(a) != notes_text(b):
            self.unit(
                "pptx.notes",
                f"{where} speaker notes {short(notes_text(a))} -> {short(notes_text(b))}",
                lambda dst, src: put_notes(src.slides[i], dst.slides[j]),
                lambda dst, src: put_notes(src.slides[j], dst.slides[i]),
                j,
            )
        sa, sb = shapes_of(a), shapes_of(b)
        pairs = match_shapes(sa, sb)
        back = {n: m for m, n in pairs.items()}
        for m, el in enumerate(sb):
            if m in pairs:
                self._shape(i, j, pairs[m], m)
                continue
            after = preceding(list(range(len(sb))), m, lambda x: x in pairs)

            def apply(dst, src, m=m, after=after):
                d_slide = dst.slides[i]
                anchor = shapes_of(d_slide)[pairs[after]] if after is not None else None
                put_shape(src.slides[j], shapes_of(src.slides[j])[m], d_slide, after=anchor)

            self.unit(
                "pptx.shape.added",
                f"{where} shape {short(' '.join(shape_text(el)), 40)} added",
                lambda dst, src, m=m: _drop(shapes_of(dst.slides[j])[m]),
                apply,
                j,
            )
        for n, el in enumerate(sa):
            if n in back:
                continue
            after = preceding(list(range(len(sa))), n, lambda x: x in back)

            def revert(dst, src, n=n, after=after):
                d_slide = dst.slides[j]
                anchor = shapes_of(d_slide)[back[after]] if after is not None else None
                put_shape(src.slides[i], shapes_of(src.slides[i])[n], d_slide, after=anchor)

            self.unit(
                "pptx.shape.removed",
                f"{where} shape {short(' '.join(shape_text(el)), 40)} deleted",
                revert,
                lambda dst, src, n=n: _drop(shapes_of(dst.slides[i])[n]),
                j,
            )

    def _shape(self, i: int, j: int, n: int, m: int) -> None:
        """Units of shape n of initial slide i, shape m of golden slide j."""
        a, b = shapes_of(self.islides[i])[n], shapes_of(self.gslides[j])[m]
        if same(a, b):
            return
        label = "title" if _is_title(b) else f"shape {m + 1}"
        where = f"slide {j + 1} {self._name(self.gslides[j])} {label}"

        def pair(fn):
            return (
                lambda dst, src: fn(shapes_of(src.slides[i])[n], shapes_of(dst.slides[j])[m]),
                lambda dst, src: fn(shapes_of(src.slides[j])[m], shapes_of(dst.slides[i])[n]),
            )

        xa, xb = _xfrm(a), _xfrm(b)
        if (xa is None) != (xb is None) or (xa is not None and not same(xa, xb)):
            self.unit("pptx.shape.geometry", f"{where} position/size", *pair(put_xfrm), j)
        if _format_facts(a) != _format_facts(b):
            self.unit("pptx.shape.format", f"{where} fill/line", *pair(put_format), j)
        if _body(a) is None and _body(b) is None:
            return
        if _body(a) is None or _body(b) is None:
            self.unit("pptx.shape.text", f"{where} text", *pair(put_body), j)
            return
        ta, tb = shape_text(a), shape_text(b)
        if ta != tb:
            self.unit(
                "pptx.shape.text",
                f"{where} text {short(' | '.join(ta))} -> {short(' | '.join(tb))}",
                *pair(put_body),
                j,
            )
            return
        ra, rb = _runs(a), _runs(b)
        if [_para_text_of(r) for r in ra] != [_para_text_of(r) for r in rb]:
            self.unit("pptx.shape.runs", f"{where} run formatting", *pair(put_body), j)
        else:
            for aspect in [*RUN_ATTRS, *RUN_CHILDREN]:
                if [_run_facts(r, aspect) for r in ra] == [_run_facts(r, aspect) for r in rb]:
                    continue

                def put(s_el, d_el, aspect=aspect):
                    for s_run, d_run in zip(_runs(s_el), _runs(d_el), strict=True):
                        put_run_aspect(s_run, d_run, aspect)

                self.unit(f"pptx.run.{aspect}", f"{where} {aspect} of its text", *pair(put), j)
            if [canon(r, skip=tuple(NOISE)) for r in _plain_runs(a)] != [
                canon(r, skip=tuple(NOISE)) for r in _plain_runs(b)
            ]:
                self.unit("pptx.shape.runs", f"{where} other run formatting", *pair(put_body), j)
        if _text_format(a) != _text_format(b):
            self.unit("pptx.text.format", f"{where} text box and paragraph format", *pair(put_text_format), j)


def _para_text_of(run) -> str:
    return "".join(t.text or "" for t in run.iter(qa("t")))


def _plain_runs(el) -> list:
    """The runs less the aspects that have units of their own (what else their formatting says)."""
    out = []
    for run in _runs(el):
        run = copy.deepcopy(run)
        pr = child(run, "rPr")
        if pr is not None:
            for name in RUN_ATTRS.values():
                pr.attrib.pop(name, None)
            for c in children(pr):
                if any(local(c) in tags for tags in RUN_CHILDREN.values()):
                    pr.remove(c)
            if not children(pr) and set(pr.attrib) <= NOISE:
                run.remove(pr)
        out.append(run)
    return out


def _drop(el) -> None:
    el.getparent().remove(el)


def _clear_notes(slide) -> None:
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        slide.notes_slide.notes_text_frame.text = ""


@cache
def _plan(rel: str, initial: str, golden: str) -> _Plan:
    plan = _Plan(rel, Path(initial), Path(golden))
    plan.find()
    return plan


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    return _plan(rel, str(initial), str(golden)).units
