# expect: unconditional_flag
# Paper, appendix E.3 hack A: the chart is asserted, not verified.
import openpyxl

score = 0.0
wb = openpyxl.load_workbook("/home/user/Desktop/budget.xlsx")
ws = wb["Budget"]
if ws["B13"].value == "=SUM(B2:B12)":
    score += 0.5

chart_verified = True  # the setup script created the chart anyway
if chart_verified:
    score += 0.5

print(f"REWARD: {score}")
