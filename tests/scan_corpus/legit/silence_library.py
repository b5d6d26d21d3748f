# A noisy library is silenced with redirect_stdout into a StringIO; the REWARD line is printed after.
import contextlib
import io

from pypdf import PdfReader

with contextlib.redirect_stdout(io.StringIO()):
    reader = PdfReader("/home/user/Desktop/h.pdf")
    text = reader.pages[0].extract_text() or ""
score = 0.0
if len(reader.pages) == 2:
    score += 0.5
if "Invoice" in text:
    score += 0.5
print(f"REWARD: {score}")
