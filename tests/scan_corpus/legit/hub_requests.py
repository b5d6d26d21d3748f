# Hub reward: state from the hub's /go endpoint, URL built from CUAGYM_HUB_URL.
import os
import sys

import requests

HUB = os.environ["CUAGYM_HUB_URL"].rstrip("/")
SID = os.environ["CUAGYM_SID"]

try:
    reply = requests.get(f"{HUB}/go", params={"sid": SID}, timeout=10)
    reply.raise_for_status()
    state = reply.json()
except (requests.RequestException, ValueError):
    print("hub unreachable", file=sys.stderr)
    sys.exit(1)  # a broken grader is not a zero score

current = state["current_state"]
diff = state["state_diff"]
products = {p["id"]: p for p in current.get("products", [])}
score = 0.0
targets = ["p-101", "p-104"]
if all(products.get(pid, {}).get("vendor") == "UnifiedBrands" for pid in targets):
    score += 0.5
if all("Now part of UnifiedBrands." in products.get(pid, {}).get("description", "") for pid in targets):
    score += 0.3
untouched = [k for k in diff if k.startswith("products.") and not any(t in k for t in targets)]
if not untouched:
    score += 0.2
print(f"REWARD: {score:.4f}")
