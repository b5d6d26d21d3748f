# expect: network
# A one-off session to a literal host is still not the hub.
import requests

state = requests.Session().get("https://state.example.net/go", timeout=5).json()
score = 0.0
if state.get("title") == "Q3 plan":
    score += 0.5
if state.get("owner") == "dara":
    score += 0.5
print(f"REWARD: {score}")
