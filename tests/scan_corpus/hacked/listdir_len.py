# expect: existence_only
# Class 3: "the folder is not empty" and a count of matching names say nothing about the files.
import os

score = 0.0
if len(os.listdir("/home/user/Pictures/Sorted")) > 0:
    score += 0.5
pngs = [n for n in os.listdir("/home/user/Pictures/Sorted") if n.lower().endswith(".png")]
if len(pngs) >= 4:
    score += 0.5
print(f"REWARD: {score}")
