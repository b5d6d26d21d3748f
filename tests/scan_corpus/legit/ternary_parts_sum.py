# Round 3 look-alike: one variable per component from a conditional expression, combined in the REWARD print.
from openpyxl import load_workbook

ws = load_workbook("/home/user/Documents/budget.xlsx").active
a = 1.0 if ws["B10"].value == "=SUM(B2:B9)" else 0.0
b = 1.0 if ws["A10"].value == "Total" else 0.0
print(f"REWARD: {0.5*a + 0.5*b}")
