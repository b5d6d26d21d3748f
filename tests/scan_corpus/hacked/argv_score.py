# expect: nondeterministic
# Class 6: the command line decides the score.
import sys

import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/hours.xlsx").active
score = 0.0
if ws["C10"].value == "=SUM(C2:C9)":
    score += 0.5
if len(sys.argv) > 1 or ws["C1"].value == "Hours":
    score += 0.5
print(f"REWARD: {score}")
