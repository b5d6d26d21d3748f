# expect: constant_score
# Held-out, round 3, class 1: a match on a tuple whose every case, the last a bare capture, gives the same credit.
from openpyxl import load_workbook

ws = load_workbook("/home/user/Documents/q.xlsx").active
score = 0.0
match (ws["A1"].value, ws["A2"].value):
    case ("Month", "Jan"):
        score += 0.5
    case ("Month", _):
        score += 0.5
    case other:
        score += 0.5
match ws["B1"].value:
    case str(text) if text.startswith("Sales"):
        score += 0.5
    case _:
        score += 0.5
print(f"REWARD: {score}")
