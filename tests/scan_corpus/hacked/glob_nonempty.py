# expect: existence_only
# "Some PDF exists on the Desktop" is not "the deck was exported correctly".
import glob

from pptx import Presentation

score = 0.0
deck = Presentation("/home/user/Desktop/pitch.pptx")
if len(deck.slides) == 6:
    score += 0.5
if glob.glob("/home/user/Desktop/*.pdf"):
    score += 0.5
print(f"REWARD: {score}")
