# Held-out legit: getattr on parsed document objects, with attribute names from the task's parameters.
import json

from pptx import Presentation

P = json.loads('{"path": "/home/user/Desktop/pitch.pptx", "styles": ["bold", "italic"], "slide": 0}')

deck = Presentation(P["path"])
slide = deck.slides[P["slide"]]
title = next((s for s in slide.shapes if getattr(s, "has_text_frame", False) and s.text_frame.text), None)
runs = [r for p in title.text_frame.paragraphs for r in p.runs] if title is not None else []

score = 0.0
for attr in P["styles"]:
    if runs and all(getattr(r.font, attr) for r in runs):
        score += 0.5
print(f"REWARD: {score}")
