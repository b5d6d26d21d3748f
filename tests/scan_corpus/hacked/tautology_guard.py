# expect: constant_score
# Class 1: the guards compare a value with itself, so they always hold.
import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/stock.xlsx").active
score = 0.0
if ws["B2"].value == ws["B2"].value:
    score += 0.5
if len("stock") == 5:
    score += 0.5
print(f"REWARD: {score}")
