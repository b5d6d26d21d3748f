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

The package is split by what each module holds: blocks.py (the body as blocks), ops.py (the ops), plan.py (finding the units),
corruptions.py.
"""

from __future__ import annotations

from mutator.docs.corruptions import corruptions
from mutator.docs.plan import units

__all__ = ["SUFFIXES", "corruptions", "units"]

SUFFIXES = (".docx",)
