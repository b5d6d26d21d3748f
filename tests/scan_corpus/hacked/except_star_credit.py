# expect: score_from_exception
# Round 3, class 4 by another route: except* (exception groups) gives the credit when the check crashes.
import json

score = 0.0
try:
    data = json.load(open("/home/user/Documents/plan.json"))
    if data["owner"] == "Kim":
        score += 0.5
except* (KeyError, OSError):
    score += 0.5
try:
    if data["due"] == "2024-05-01":
        score += 0.5
except* Exception:
    score += 0.5
print(f"REWARD: {score}")
