# expect: existence_only
# Held-out, class 3: "newer than the source" and "bigger than 1 KiB" say nothing about the content.
import os

SRC = "/home/user/Documents/report.md"
OUT = "/home/user/Documents/report.pdf"

score = 0.0
try:
    if os.path.getmtime(OUT) >= os.path.getmtime(SRC):
        score += 0.5
    if os.stat(OUT).st_size > 1024:
        score += 0.5
except OSError:
    score = 0.0
print(f"REWARD: {score}")
