# Held-out legit, round 3: three named conditional components, weighted, rounded in the REWARD print.
from docx import Document

doc = Document("/home/user/Documents/cover.docx")
section = doc.sections[0]
title_ok = 1.0 if doc.paragraphs and doc.paragraphs[0].style.name == "Title" else 0.0
margins_ok = 1.0 if abs(section.left_margin.inches - 1.0) < 0.01 else 0.0
landscape_ok = 1.0 if section.orientation == 1 else 0.0
print(f"REWARD: {round(0.4 * title_ok + 0.3 * margins_ok + 0.3 * landscape_ok, 3)}")
