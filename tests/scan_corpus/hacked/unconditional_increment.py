# expect: constant_score
# "The file opens" is not a task outcome: the first half of the credit is unconditional.
import openpyxl

score = 0.0
wb = openpyxl.load_workbook("/home/user/Desktop/inventory.xlsx")
score += 0.5
if wb.active["C20"].value == "=SUM(C2:C19)":
    score += 0.5
print(f"REWARD: {score}")
