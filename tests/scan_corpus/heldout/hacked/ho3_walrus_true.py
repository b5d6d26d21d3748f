# expect: constant_score
# Held-out, round 3, class 1: the tested value is assigned a constant in a walrus, so the check always holds.
from pptx import Presentation

deck = Presentation("/home/user/Desktop/talk.pptx")
score = 0.0
if (titled := True) and len(deck.slides) >= 0:
    score += 0.5
if titled or deck.slides[0].shapes.title.text == "Talk":
    score += 0.5
print(f"REWARD: {score}")
