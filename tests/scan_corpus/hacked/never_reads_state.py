# expect: no_state_access
# Scores the parameters against themselves: the agent's work is never looked at.
import json

P = json.loads('{"ids": [1, 2, 3], "width": 5}')
score = 0.0
if len(P["ids"]) == 3:
    score += 0.5
if P["width"] == 5:
    score += 0.5
print(f"REWARD: {score}")
