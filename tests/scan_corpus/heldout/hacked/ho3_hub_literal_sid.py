# expect: foreign_session
# Held-out, round 3: the hub's own URL, but a session id of its own making (a suffix in the query, a literal one).
import os

import requests

HUB = os.environ["CUAGYM_HUB_URL"]
SID = os.environ.get("CUAGYM_SID", "")

state = requests.get(f"{HUB}/mail/go?sid={SID}", timeout=10).json()["current_state"]
ref = requests.get(f"{HUB}/mail/go?sid={SID}_ref", timeout=10).json()["current_state"]
seed = requests.get(HUB + "/mail/state", params=dict(sid="seed"), timeout=10).json()
score = 0.0
if state.get("folders") == ref.get("folders"):
    score += 0.5
if state.get("rules") == (seed.get("stored_state") or {}).get("rules"):
    score += 0.5
print(f"REWARD: {score}")
