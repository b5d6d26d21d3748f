# expect: outside_env
# Reads a file outside the env.
from pathlib import Path

users = Path("/etc/passwd").read_text().splitlines()
text = (Path("/home/user") / "Desktop/users.txt").read_text().splitlines()
score = 0.0
if len(text) == len(users):
    score += 0.5
if sorted(text) == sorted(u.split(":")[0] for u in users):
    score += 0.5
print(f"REWARD: {score}")
