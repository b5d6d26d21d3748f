# Held-out legit: datetime and time only parse dates held in the state.
import csv
import json
import time
from datetime import datetime, timedelta

P = json.loads('{"path": "/home/user/Desktop/shifts.csv", "start": "2024-05-06", "days": 5}')

with open(P["path"], newline="") as fh:
    rows = list(csv.DictReader(fh))

start = datetime.strptime(P["start"], "%Y-%m-%d")
dates = [datetime.strptime(r["date"], "%Y-%m-%d") for r in rows if r.get("date")]
stamps = [time.strptime(r["logged"], "%H:%M") for r in rows if r.get("logged")]

score = 0.0
if dates == [start + timedelta(days=i) for i in range(P["days"])]:
    score += 0.6
if stamps and all(s.tm_hour < 18 for s in stamps):
    score += 0.4
print(f"REWARD: {score}")
