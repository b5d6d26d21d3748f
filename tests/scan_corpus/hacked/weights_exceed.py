# expect: score_can_exceed_one
# Three half-point checks and no clamp: a full solution prints REWARD: 1.5.
import docx

doc = docx.Document("/home/user/Documents/memo.docx")
score = 0.0
if doc.paragraphs[0].style.name == "Title":
    score += 0.5
if any(p.style.name == "Heading 1" for p in doc.paragraphs):
    score += 0.5
if len(doc.tables) == 1:
    score += 0.5
print(f"REWARD: {score}")
