# Held-out legit, round 3: the env's own session in the query string, conditional components.
import os

import requests

HUB = os.environ["CUAGYM_HUB_URL"].rstrip("/")
SID = os.environ["CUAGYM_SID"]

reply = requests.get(f"{HUB}/calendar/go?sid={SID}", timeout=15).json()
events = reply["current_state"].get("events", [])
standup = [e for e in events if e.get("title") == "Standup"]
a = 1.0 if len(standup) == 1 else 0.0
b = 1.0 if standup and standup[0].get("start") == "09:30" else 0.0
print(f"REWARD: {0.5*a + 0.5*b}")
