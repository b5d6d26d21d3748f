# expect: constant_score
# The grader opens the workbook, looks at nothing in it, and prints full credit.
import openpyxl

wb = openpyxl.load_workbook("/home/user/Desktop/sales.xlsx")
ws = wb.active
total = ws["B14"].value
if total == 5230:
    print("total ok")
print("REWARD: 1.0")
