# Checks in plain helper functions, each returning its weighted share; the score is their sum.
import json

from docx import Document

P = json.loads('{"path": "/home/user/Documents/cv.docx", "name": "Ada Park", "sections": ["Education", "Work"]}')


def check_name(doc):
    return 0.4 if doc.paragraphs and doc.paragraphs[0].text.strip() == P["name"] else 0.0


def check_sections(doc):
    headings = [p.text.strip() for p in doc.paragraphs if p.style.name.startswith("Heading")]
    return 0.6 * sum(s in headings for s in P["sections"]) / len(P["sections"])


doc = Document(P["path"])
score = check_name(doc) + check_sections(doc)
print(f"REWARD: {round(score, 4)}")
