# Round 3 look-alike: float() of each check's bool, a weighted sum in a name, printed with a format spec.
from docx import Document

doc = Document("/home/user/Documents/report.docx")
headings = [p.text for p in doc.paragraphs if p.style.name == "Heading 1"]
a = float(headings[:1] == ["Summary"])
b = float(len(doc.tables) == 2)
reward = 0.5 * a + 0.5 * b
print(f"REWARD: {reward:.2f}")
