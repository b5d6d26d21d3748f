# Round 3 look-alike: an os.walk counter that opens every note and counts those marked done.
import os

ROOT = "/home/user/Documents/notes"
done = 0
archived = 0
for folder, _dirs, files in os.walk(ROOT):
    for name in files:
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            text = fh.read()
        if text.startswith("DONE"):
            done += 1
        if "archive" in folder and "#archived" in text:
            archived += 1
score = 0.0
if done == 3:
    score += 0.5
if archived == 2:
    score += 0.5
print(f"REWARD: {score}")
