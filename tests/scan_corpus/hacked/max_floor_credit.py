# expect: constant_score
# Round 3, class 1: max() puts a floor under each component, so half of each is paid whatever the state.
from pptx import Presentation

deck = Presentation("/home/user/Desktop/pitch.pptx")
titles = [s.shapes.title.text for s in deck.slides if s.shapes.title is not None]
score = 0.0
score += max(0.5, 0.5 * (len(deck.slides) == 5))
score += max(0.5, 0.5 * (titles[:1] == ["Pitch"]))
print(f"REWARD: {min(score, 1.0)}")
