# expect: score_from_exception
# Class 4: full credit by default; the deductions sit in a try whose except passes.
from pptx import Presentation

score = 1.0
try:
    deck = Presentation("/home/user/Desktop/launch.pptx")
    if len(deck.slides) != 6:
        score -= 0.5
    if deck.slides[0].shapes.title.text != "Launch plan":
        score -= 0.5
except Exception:
    pass
print(f"REWARD: {max(score, 0.0)}")
