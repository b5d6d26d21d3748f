# expect: dynamic_code
# Class 5: operator.methodcaller and a string-built attribute name reach os.system.
import operator
import os

import openpyxl

ws = openpyxl.load_workbook("/home/user/Desktop/log.xlsx").active
operator.methodcaller("sys" + "tem", "true")(os)
score = 0.0
if ws["A1"].value == "Log":
    score += 0.5
if ws.max_row > 3:
    score += 0.5
print(f"REWARD: {score}")
