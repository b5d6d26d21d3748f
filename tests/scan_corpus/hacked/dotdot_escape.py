# expect: outside_env
# Climbs out of the home with `..`.
from pathlib import Path

HOME = Path("/home/user")
secret = (HOME / ".." / ".." / "root" / "answers.txt").read_text()
mine = (HOME / "Desktop/answers.txt").read_text()
score = 0.0
if mine.splitlines()[0] == secret.splitlines()[0]:
    score += 0.5
if mine.splitlines()[1:] == secret.splitlines()[1:]:
    score += 0.5
print(f"REWARD: {score}")
