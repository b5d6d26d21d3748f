# expect: score_from_exception
# Round 3, class 4: full credit by default, the deductions sit under contextlib.suppress, so a crash keeps 1.0.
import contextlib

from openpyxl import load_workbook

score = 1.0
with contextlib.suppress(Exception):
    ws = load_workbook("/home/user/Documents/budget.xlsx").active
    if ws["B2"].value != "=SUM(B3:B9)":
        score -= 0.5
    if ws["C1"].value != "Total":
        score -= 0.5
print(f"REWARD: {max(score, 0.0)}")
