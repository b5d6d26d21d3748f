# expect: dynamic_code
# Evaluates file content: whatever the agent writes into the file runs inside the grader.
from pathlib import Path

config = eval(Path("/home/user/.config/app/settings.py").read_text())
score = 0.0
if config.get("theme") == "dark":
    score += 0.5
if config.get("font_size") == 14:
    score += 0.5
print(f"REWARD: {score}")
