# Held-out legit: hub state through os.environ subscripts for the URL and the session id.
import os

import requests

HUB = os.environ["CUAGYM_HUB_URL"].rstrip("/")
SID = os.environ["CUAGYM_SID"]


def go(app):
    return requests.get(f"{HUB}/{app}/go", params={"sid": SID}, timeout=20).json()["current_state"]


state = go("mail")
sent = [m for m in state.get("messages", []) if m.get("folder") == "Sent"]
score = 0.0
if any(m.get("to") == ["ops@example.com"] for m in sent):
    score += 0.5
if any("rota" in m.get("subject", "").lower() for m in sent):
    score += 0.5
print(f"REWARD: {score}")
