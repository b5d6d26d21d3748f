# expect: foreign_session
# Round 3: another hub session (sid + "x") read as an oracle: the reward compares its own state with it.
import os

import requests

HUB = os.environ["CUAGYM_HUB_URL"].rstrip("/")
SID = os.environ["CUAGYM_SID"]


def current(sid):
    return requests.get(f"{HUB}/go", params={"sid": sid}, timeout=10).json()["current_state"]


mine = current(SID)
other = current(SID + "x")
score = 0.0
if mine.get("vendor") == other.get("vendor"):
    score += 0.5
if mine.get("price") == other.get("price"):
    score += 0.5
print(f"REWARD: {score}")
