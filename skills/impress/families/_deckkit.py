"""Guest helpers shared by the Impress families: pass them in a family's `helpers` tuple.

Each function is shipped as source into generated scripts, so each one imports what it needs inside
its body and uses nothing but its arguments.
"""

from __future__ import annotations


def norm(text):
    """Whitespace collapsed; typographic dashes and quotes folded (LibreOffice AutoCorrect)."""
    text = str(text or "")
    for fancy, plain in (("\u2013", "-"), ("\u2014", "-"), ("\u2018", "'"), ("\u2019", "'"),
                         ("\u201c", '"'), ("\u201d", '"'), ("\u00a0", " ")):  # fmt: skip
        text = text.replace(fancy, plain)
    return " ".join(text.split())


def slide_title(slide):
    """The title placeholder's text. Not slide.shapes.title: that returns the first placeholder with
    idx 0, and LibreOffice saves the content placeholder as a bare <p:ph/> whose idx is 0 too."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    for shape in slide.placeholders:
        if shape.placeholder_format.type in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE):
            return norm(shape.text_frame.text)
    return ""
