# expect: constant_score
# The checks set messages but the score is a constant.
import docx

doc = docx.Document("/home/user/Documents/letter.docx")
notes = []
if doc.sections[0].orientation != 1:
    notes.append("not landscape")
if not doc.tables:
    notes.append("no table")
score = 0.0
score = 1.0
print("\n".join(notes))
print(f"REWARD: {score}")
