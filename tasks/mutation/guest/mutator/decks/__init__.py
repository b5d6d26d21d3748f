"""Presentations (.pptx): units per slide (added, removed, moved, layout, notes) and per shape
(added, removed, text, run formatting, text-box format, position and size, fill and line), and the
corruptions a careless agent makes in a deck.

Slides of the two versions are matched by content, never by position (python-pptx renumbers the
slide parts on save, and a reorder is the change itself): the same title and texts first, then
the same title, then similar texts. Matched slides that left the initial order (outside a longest
run kept in order) are one `moved` unit each. Shapes of matched slides are matched by shape id,
then by name. Units:

- pptx.slide.{added,removed,moved,layout}, pptx.notes;
- pptx.shape.{added,removed,text,runs,geometry,format}, pptx.text.format (box and paragraph
  properties: the text box's own list style, alignment, ...), and per run aspect
  pptx.run.{bold,italic,underline,strike,size,caps,baseline,colour,font,highlight} when the golden
  kept the runs as they were (else the formatting is one `runs` unit);
- an added slide is a container: its shapes and notes are units (the initial with the slide
  holding only that shape), the slide itself one too when the file changed elsewhere;
- pptx.property (docProps/core.xml, less what incidental.yaml names).

Ops open the deck with python-pptx, edit its lxml elements (deep copies from the other version;
a picture brings its image part) and save it.

The package is split by what each module holds: slides.py (slides and shapes, and their matching), ops.py (the ops), plan.py
(finding the units), corruptions.py.
"""

from __future__ import annotations

from mutator.decks.corruptions import corruptions
from mutator.decks.plan import units

__all__ = ["SUFFIXES", "corruptions", "units"]

SUFFIXES = (".pptx",)
