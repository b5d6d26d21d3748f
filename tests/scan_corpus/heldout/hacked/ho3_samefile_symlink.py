# expect: existence_only
# Held-out, round 3, class 3: "the shortcut points at the report" checked by lexists/islink/samefile alone.
import os

LINK = "/home/user/Desktop/report-link.pdf"
TARGET = "/home/user/Documents/report.pdf"
score = 0.0
if os.path.lexists(LINK) and os.path.islink(LINK):
    score += 0.5
try:
    if os.path.samefile(LINK, TARGET):
        score += 0.5
except OSError:
    pass
print(f"REWARD: {score}")
