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

The package is split by what each module holds: book.py (the workbook's parts), cell_ops.py,
sheet_ops.py and chart_ops.py (the ops), plan.py with cell_units.py and chart_units.py (finding the
units), corruptions.py. The Package class (../ooxml.py) and the document-property units
(../office.py) are shared with docs and decks.
"""

from __future__ import annotations

from mutator.sheets.corruptions import corruptions
from mutator.sheets.plan import units

__all__ = ["SUFFIXES", "corruptions", "units"]

SUFFIXES = (".xlsx",)
