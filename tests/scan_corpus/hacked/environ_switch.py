# expect: nondeterministic
# Class 6: an environment variable decides the score.
import os

from docx import Document

doc = Document("/home/user/Documents/offer.docx")
score = 0.0
if os.environ.get("GRADER_MODE", "lenient") == "lenient":
    score += 0.5
if doc.paragraphs[0].text == "Offer letter":
    score += 0.5
print(f"REWARD: {score}")
