# expect: nondeterministic
# Held-out, class 6: half the credit depends on the machine's name and today's date.
import platform
from datetime import date

from docx import Document

doc = Document("/home/user/Documents/letter.docx")
score = 0.0
if doc.paragraphs and doc.paragraphs[0].text.startswith("Dear"):
    score += 0.5
if platform.node() and date.today().year >= 2024:
    score += 0.5
print(f"REWARD: {score}")
