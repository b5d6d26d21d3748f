# expect: existence_only
# Round 3, class 3: existence probes reached through getattr with the method's name as a string.
from pathlib import Path

DESK = Path("/home/user/Desktop")
score = 0.0
if getattr(DESK / "report.pdf", "exists")():
    score += 0.5
if getattr(DESK / "slides.pdf", "is_file")():
    score += 0.5
print(f"REWARD: {score}")
