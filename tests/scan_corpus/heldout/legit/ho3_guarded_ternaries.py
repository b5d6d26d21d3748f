# Held-out legit, round 3: each conditional component in its own try, 0.0 on error.
from openpyxl import load_workbook

try:
    ws = load_workbook("/home/user/Documents/sales.xlsx").active
except OSError:
    ws = None
try:
    a = 1.0 if ws["D2"].value == "=B2*C2" else 0.0
except (TypeError, KeyError):
    a = 0.0
try:
    b = 1.0 if ws["D1"].font.bold else 0.0
except (TypeError, AttributeError):
    b = 0.0
print(f"REWARD: {0.5*a + 0.5*b}")
