# expect: dynamic_code
# Class 5: exec fetched from builtins.__dict__ under a split name.
import builtins
from pathlib import Path

source = Path("/home/user/Documents/check.txt").read_text()
builtins.__dict__["ex" "ec"](source)
score = 0.0
if "done" in source:
    score += 0.5
if source.count("\n") > 2:
    score += 0.5
print(f"REWARD: {score}")
