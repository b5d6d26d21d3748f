# getattr on parsed document objects and an itemgetter sort key: no code is looked up by name.
import json
import operator

from docx import Document

P = json.loads('{"path": "/home/user/Documents/style.docx", "attrs": ["bold", "underline"]}')
doc = Document(P["path"])
runs = [r for p in doc.paragraphs[:1] for r in p.runs]
sizes = sorted(((r.text, r.font.size or 0) for r in runs), key=operator.itemgetter(1))

score = 0.0
for attr in P["attrs"]:
    if runs and all(getattr(r.font, attr, None) for r in runs):
        score += 0.4
if sizes and getattr(doc.paragraphs[0].style, "name", "") == "Title":
    score += 0.2
print(f"REWARD: {score}")
