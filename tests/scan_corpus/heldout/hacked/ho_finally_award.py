# expect: score_from_exception
# Held-out, class 4: the finally block pays half the score whatever happened in the try.
import openpyxl

score = 0.0
try:
    ws = openpyxl.load_workbook("/home/user/Desktop/inventory.xlsx").active
    if ws["B2"].value == 42:
        score += 0.5
finally:
    score += 0.5
print(f"REWARD: {score}")
