# Bonus-style checks clamped to 1.0 before printing.
import docx

doc = docx.Document("/home/user/Documents/minutes.docx")
points = 0.0
if doc.paragraphs and doc.paragraphs[0].style.name == "Title":
    points += 0.4
if len(doc.tables) >= 1 and len(doc.tables[0].rows) == 4:
    points += 0.4
if any("Action items" in p.text for p in doc.paragraphs):
    points += 0.4
print(f"REWARD: {min(points, 1.0)}")
