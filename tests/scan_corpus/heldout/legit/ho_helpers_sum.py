# Held-out legit: three checks in helper functions, each a fraction, averaged.
import json

from docx import Document

P = json.loads('{"path": "/home/user/Documents/policy.docx", "title": "Travel policy", "sections": ["Scope", "Booking", "Expenses"]}')


def title_ok(doc):
    return 1.0 if doc.paragraphs and doc.paragraphs[0].text.strip() == P["title"] else 0.0


def sections_ok(doc):
    found = {p.text.strip() for p in doc.paragraphs if p.style.name.startswith("Heading")}
    return sum(s in found for s in P["sections"]) / len(P["sections"])


def order_ok(doc):
    seen = [p.text.strip() for p in doc.paragraphs if p.text.strip() in P["sections"]]
    return 1.0 if seen == P["sections"] else 0.0


doc = Document(P["path"])
parts = [title_ok(doc), sections_ok(doc), order_ok(doc)]
score = sum(parts) / len(parts)
print(f"REWARD: {round(score, 4)}")
