"""A workbook's chart units: charts added or removed whole, and the titles, axis titles, series
and type of a chart in both versions. A mixin of the sheets plan (plan.py)."""

from __future__ import annotations

from mutator.core import Unit
from mutator.ooxml import same
from mutator.sheets.chart_ops import (
    _chart_kinds,
    _kind_facts,
    add_chart,
    chart_parts,
    charts_of,
    put_chart_part,
    put_chart_type,
    remove_chart,
    remove_chart_part,
)


class ChartUnits:
    """Chart units of one golden sheet; `self` is the plan (plan.py)."""

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
