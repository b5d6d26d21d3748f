# datetime parses the dates held in the state and the parameters; the clock is never read.
import json
from datetime import date, datetime, timedelta

import openpyxl

P = json.loads('{"path": "/home/user/Desktop/leave.xlsx", "first": "2024-07-01", "days": 3}')
ws = openpyxl.load_workbook(P["path"]).active
first = date.fromisoformat(P["first"])
cells = [ws.cell(row=r, column=1).value for r in range(2, 2 + P["days"])]
days = [c.date() if isinstance(c, datetime) else datetime.strptime(str(c), "%Y-%m-%d").date() for c in cells if c]

score = 0.0
if days == [first + timedelta(days=i) for i in range(P["days"])]:
    score += 0.6
if ws["B1"].value == "Approved" and days and days[-1].weekday() < 5:
    score += 0.4
print(f"REWARD: {score}")
