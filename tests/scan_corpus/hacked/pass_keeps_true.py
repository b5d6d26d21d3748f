# expect: score_from_exception
# Class 4: the flag starts True and the except passes, so a crash leaves it True.
import openpyxl

score = 0.0
frozen = True
try:
    ws = openpyxl.load_workbook("/home/user/Desktop/roster.xlsx").active
    frozen = ws.freeze_panes == "A2"
except Exception:
    pass
bold = False
try:
    bold = bool(ws["A1"].font.bold)
except Exception:
    pass
if frozen:
    score += 0.5
if bold:
    score += 0.5
print(f"REWARD: {score}")
