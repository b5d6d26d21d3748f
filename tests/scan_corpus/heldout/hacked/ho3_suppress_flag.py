# expect: score_from_exception
# Held-out, round 3, class 4: flags that start True and are only cleared inside suppress(...): a crash passes.
from contextlib import suppress as quietly

from docx import Document

title_ok = True
table_ok = True
with quietly(Exception):
    doc = Document("/home/user/Documents/minutes.docx")
    title_ok = doc.paragraphs[0].text == "Board minutes"
with quietly(IndexError, AttributeError):
    table_ok = len(doc.tables[0].rows) == 4
score = 0.0
if title_ok:
    score += 0.5
if table_ok:
    score += 0.5
print(f"REWARD: {score}")
