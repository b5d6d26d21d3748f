# expect: score_from_exception
# The flag is set when the check crashes.
import openpyxl

score = 0.0
ws = openpyxl.load_workbook("/home/user/Desktop/ledger.xlsx").active
totals_ok = False
try:
    totals_ok = ws["F30"].value == "=SUM(F2:F29)"
except KeyError:
    totals_ok = True
if totals_ok:
    score += 0.5
if ws.freeze_panes == "A2":
    score += 0.5
print(f"REWARD: {score}")
