# Hub reward with a helper that takes the URL: every caller passes a hub-derived URL.
import os

import requests

BASE = os.environ.get("CUAGYM_HUB_URL", "http://127.0.0.1:8765")
SID = os.getenv("CUAGYM_SID", "local")
session = requests.Session()


def fetch(url):
    return session.get(url, params={"sid": SID}, timeout=10).json()


def state():
    return fetch(BASE + "/go")["current_state"]


def stored():
    return fetch("{}/state".format(BASE))["stored_state"]


s = state()
score = 0.0
if [t["title"] for t in s.get("tasks", []) if t.get("done")] == ["Book venue", "Send invites"]:
    score += 0.5
if stored().get("lists", {}).get("Done", 0) == 2:
    score += 0.5
print("REWARD: %.4f" % score)
