# expect: too_few_components
# All-or-nothing: one check, no partial credit.
import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/grades.xlsx").active
score = 0.0
if ws["E2"].value == "=AVERAGE(B2:D2)":
    score += 1.0
print(f"REWARD: {score}")
