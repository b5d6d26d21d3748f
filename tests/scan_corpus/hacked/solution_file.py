# expect: answer_key
# Class 2: the expected text is read from a file named like a solution.
from docx import Document

expected = open("/home/user/.local/share/grading/solution.txt").read().split("\n")
doc = Document("/home/user/Documents/memo.docx")
paras = [p.text for p in doc.paragraphs]
score = 0.0
if paras[:1] == expected[:1]:
    score += 0.5
if paras[1:] == expected[1:]:
    score += 0.5
print(f"REWARD: {score}")
