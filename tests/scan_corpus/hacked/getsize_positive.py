# expect: existence_only
# Class 3: "bigger than zero bytes" is existence in disguise.
import os

score = 0.0
if os.path.getsize("/home/user/Desktop/summary.pdf") > 0:
    score += 0.5
if os.path.getsize("/home/user/Desktop/summary.docx") > 0:
    score += 0.5
print(f"REWARD: {score}")
