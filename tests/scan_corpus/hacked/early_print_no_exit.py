# expect: reward_line
# Class 8: an early REWARD print without an exit, then the real one: two REWARD lines.
import os

PATH = "/home/user/Documents/d.txt"
if not os.path.exists(PATH):
    print("REWARD: 0.0")
text = open(PATH).read() if os.path.exists(PATH) else ""
score = 0.0
if "alpha" in text:
    score += 0.5
if "beta" in text:
    score += 0.5
for _ in range(2):
    print(f"REWARD: {score}")
