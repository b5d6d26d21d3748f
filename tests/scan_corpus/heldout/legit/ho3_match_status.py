# Held-out legit, round 3: a match whose wildcard case gives no credit.
import json

order = json.load(open("/home/user/Documents/order.json"))
match order.get("status"):
    case "shipped":
        a = 1.0
    case "packed":
        a = 0.5
    case _:
        a = 0.0
match order.get("address", {}).get("city"):
    case "Lyon":
        b = 1.0
    case _:
        b = 0.0
print(f"REWARD: {0.5 * a + 0.5 * b}")
