# expect: existence_only
# Held-out, round 3, class 3: an os.walk counter that counts file names by suffix and never opens one.
import os

ROOT = "/home/user/Pictures/sorted"
WANT = {"jpg": 4, "png": 3}

counts = {}
for folder, _dirs, files in os.walk(ROOT):
    for name in files:
        ext = name.rsplit(".", 1)[-1].lower()
        counts[ext] = counts.get(ext, 0) + 1
score = 0.0
if counts.get("jpg", 0) == WANT["jpg"]:
    score += 0.5
if counts.get("png", 0) == WANT["png"]:
    score += 0.5
print(f"REWARD: {score}")
