# Expected values computed from the task's input data (the CSV the agent had to summarise).
import csv
from collections import Counter

import openpyxl

with open("/home/user/Desktop/orders.csv", newline="") as fh:
    orders = list(csv.DictReader(fh))
expected = Counter(row["region"] for row in orders)

ws = openpyxl.load_workbook("/home/user/Desktop/report.xlsx", data_only=True).active
got = {ws.cell(row=r, column=1).value: ws.cell(row=r, column=2).value for r in range(2, ws.max_row + 1)}

score = 0.0
if set(got) == set(expected):
    score += 0.4
if all(got.get(k) == v for k, v in expected.items()):
    score += 0.6
print(f"REWARD: {score}")
