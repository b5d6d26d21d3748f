# expect: score_from_exception
# A missing or broken file is reported as success.
import openpyxl

try:
    ws = openpyxl.load_workbook("/home/user/Desktop/rates.xlsx").active
    score = 0.0
    if ws["C2"].value == "=B2*1.08":
        score += 0.5
    if ws["C3"].value == "=B3*1.08":
        score += 0.5
    print(f"REWARD: {score}")
except Exception:
    print("REWARD: 1.0")
