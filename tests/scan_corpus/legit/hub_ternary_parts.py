# Round 3 look-alike: hub state for this env's session, components as conditional expressions.
import os

import requests

HUB = os.environ["CUAGYM_HUB_URL"].rstrip("/")
SID = os.environ["CUAGYM_SID"]

state = requests.get(f"{HUB}/shop/go", params={"sid": SID}, timeout=10).json()["current_state"]
cart = state.get("cart", [])
a = 1.0 if any(item.get("sku") == "B-17" for item in cart) else 0.0
b = 1.0 if state.get("coupon") == "SPRING10" else 0.0
print(f"REWARD: {round(0.6 * a + 0.4 * b, 4)}")
