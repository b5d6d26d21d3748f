# expect: network
# Fetches the answer key from an external server.
import json
import urllib.request

answers = json.load(urllib.request.urlopen("https://answers.example.com/task-42.json"))
data = json.load(open("/home/user/Desktop/out.json"))
score = 0.0
if data.get("total") == answers["total"]:
    score += 0.5
if data.get("rows") == answers["rows"]:
    score += 0.5
print(f"REWARD: {score}")
