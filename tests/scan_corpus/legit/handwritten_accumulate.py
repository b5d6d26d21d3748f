# Hand-written: three weighted checks on a workbook, each guarded; missing file scores 0.
import sys

import openpyxl

PATH = "/home/user/Desktop/q3_sales.xlsx"

try:
    wb = openpyxl.load_workbook(PATH)
    values = openpyxl.load_workbook(PATH, data_only=True)
except (OSError, KeyError, ValueError):
    print("REWARD: 0.0")
    sys.exit(0)

ws, vs = wb["Sales"], values["Sales"]
score = 0.0
try:
    if str(ws["E2"].value).replace(" ", "").upper() == "=SUMIFS(C:C,B:B,A2)":
        score += 0.4
except (TypeError, AttributeError):
    pass
try:
    if all(vs.cell(row=r, column=5).value == expected for r, expected in [(2, 1200), (3, 860), (4, 455)]):
        score += 0.3
except (TypeError, AttributeError):
    pass
if ws["E1"].font.bold:
    score += 0.3
print(f"REWARD: {round(score, 4)}")
