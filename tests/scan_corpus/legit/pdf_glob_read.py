# Globs for the exported PDF, then reads it: the glob is a listing, the content decides.
from pathlib import Path

from pypdf import PdfReader

HOME = Path("/home/user")
score = 0.0
pdfs = sorted((HOME / "Desktop").glob("budget*.pdf"))
for pdf in pdfs[:1]:
    reader = PdfReader(pdf)
    if len(reader.pages) == 2:
        score += 0.5
    if "Total" in (reader.pages[-1].extract_text() or ""):
        score += 0.5
print(f"REWARD: {score}")
