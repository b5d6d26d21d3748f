# expect: existence_only
# Credit for files merely existing: an empty PDF passes.
import os

score = 0.0
if os.path.exists("/home/user/Desktop/report.pdf"):
    score += 0.5
if os.path.isfile("/home/user/Desktop/summary.xlsx"):
    score += 0.5
print(f"REWARD: {score}")
