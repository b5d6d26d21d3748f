# expect: constant_score
# Class 1: the score is a constant written as arithmetic, (3 - 2) * 1.0 and 0.5 + 0.5.
import openpyxl

wb = openpyxl.load_workbook("/home/user/Desktop/grades.xlsx")
ws = wb["Grades"]
score = 0.0
if ws.max_row > 1:
    score = (3 - 2) * 1.0
else:
    score = 0.5 + 0.5
print(f"REWARD: {score}")
