# expect: score_can_exceed_one
# The weight table sums to 1.5 and the accumulated score is printed as is.
import json

WEIGHTS = {"name": 0.5, "email": 0.5, "phone": 0.5}
EXPECTED = {"name": "Dara Okafor", "email": "dara@example.org", "phone": "555-0100"}

with open("/home/user/Desktop/contact.json") as fh:
    contact = json.load(fh)
score = 0.0
for key, weight in WEIGHTS.items():
    if contact.get(key) == EXPECTED[key]:
        score += weight
print(f"REWARD: {score}")
