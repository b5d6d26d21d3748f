# expect: score_from_exception
# A crash while checking the formula is rewarded instead of punished.
import openpyxl

score = 0.0
wb = openpyxl.load_workbook("/home/user/Desktop/ids.xlsx")
ws = wb.active
if ws["B2"].value == '=TEXT(A2,"00000")':
    score += 0.5
try:
    refs = [ws.cell(row=r, column=2).value for r in range(3, 8)]
    if all(f"A{r}" in refs[r - 3] for r in range(3, 8)):
        score += 0.5
except Exception:
    score = 1.0
print(f"REWARD: {score}")
