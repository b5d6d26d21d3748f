# Loop flags: each starts True and a bad row turns it False; that is a real check.
import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/ids.xlsx").active
all_padded = True
all_relative = True
for row in range(2, 8):
    value = ws.cell(row=row, column=2).value
    if not isinstance(value, str) or not value.startswith("=TEXT("):
        all_padded = False
    if f"A{row}" not in str(value):
        all_relative = False
score = 0.0
if all_padded:
    score += 0.6
if all_relative:
    score += 0.4
print(f"REWARD: {score}")
