# Hub reward: CUAGYM_HUB_URL / CUAGYM_SID from the environment, a short settle wait with time.sleep.
import os
import time

import requests

HUB = os.environ.get("CUAGYM_HUB_URL", "__CUAGYM_HUB_URL__").rstrip("/")
SID = os.environ.get("CUAGYM_SID", "__CUAGYM_SID__")


def state():
    return requests.get(f"{HUB}/tracker/go", params={"sid": SID}, timeout=20).json()["current_state"]


time.sleep(0.5)
issues = state().get("issues", [])
score = 0.0
if any(i.get("title") == "Fix login" and i.get("assignee") == "kim" for i in issues):
    score += 0.5
if any(i.get("labels") == ["bug"] for i in issues):
    score += 0.5
print(f"REWARD: {score}")
