# Round 3 look-alike: a dataclass holds each check's name, weight and result; no dunder is redefined.
from dataclasses import dataclass

from pptx import Presentation


@dataclass
class Check:
    name: str
    weight: float
    passed: bool


deck = Presentation("/home/user/Desktop/review.pptx")
checks = [
    Check("five slides", 0.5, len(deck.slides) == 5),
    Check("first title", 0.5, deck.slides[0].shapes.title is not None and deck.slides[0].shapes.title.text == "Review"),
]
score = sum(c.weight for c in checks if c.passed)
print(f"REWARD: {score}")
