# expect: constant_score
# Round 3, class 1: a match whose wildcard case credits as much as the right answer, so any state is paid.
import json

state = json.load(open("/home/user/.config/shop/orders.json"))
score = 0.0
match state.get("status"):
    case "shipped":
        score += 0.5
    case _:
        score += 0.5
match state.get("carrier"):
    case "DHL" | "UPS":
        score += 0.5
    case _:
        score += 0.5
print(f"REWARD: {score}")
