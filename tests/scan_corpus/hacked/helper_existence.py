# expect: existence_only
# The existence probe hides in a helper; the credit it decides is still existence-only.
import json
import os

OUT = "/home/user/Desktop/export.csv"


def exported():
    return os.path.isfile(OUT)


with open("/home/user/Desktop/config.json") as fh:
    config = json.load(fh)
score = 0.0
if config.get("delimiter") == ";":
    score += 0.5
if exported():
    score += 0.5
print(f"REWARD: {score}")
