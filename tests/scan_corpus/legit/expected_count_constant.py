# Round 3 look-alike: an expected value that happens to be 1 (a named constant compared with the state) is not a flag.
from openpyxl import load_workbook

EXPECTED_SHEETS = 1
EXPECTED_HEADER = "Region"

wb = load_workbook("/home/user/Documents/regions.xlsx")
score = 0.0
if len(wb.sheetnames) == EXPECTED_SHEETS:
    score += 0.5
if wb.active["A1"].value == EXPECTED_HEADER:
    score += 0.5
print(f"REWARD: {score}")
