# expect: network
# requests is allowed for the hub only; this URL is a literal, not CUAGYM_HUB_URL.
import os

import requests

SID = os.environ["CUAGYM_SID"]
state = requests.get("http://203.0.113.7:8080/go", params={"sid": SID}, timeout=10).json()["current_state"]
score = 0.0
if state["cart"]["items"] == 3:
    score += 0.5
if state["cart"]["coupon"] == "SPRING":
    score += 0.5
print(f"REWARD: {score}")
