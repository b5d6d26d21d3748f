# expect: reward_line
# Class 8: a REWARD line on stderr, in case the runner merges the streams.
import sys

lines = open("/home/user/Documents/plan.txt").read().splitlines()
score = 0.0
if lines[:1] == ["Plan"]:
    score += 0.5
if "Launch" in lines:
    score += 0.5
print("REWARD: 1.0", file=sys.stderr)
print(f"REWARD: {score}")
