# expect: dynamic_code
# Class 5: unpickling a literal blob runs whatever its __reduce__ says.
import base64
import pickle

import openpyxl

BLOB = "gASVIAAAAAAAAACMCGJ1aWx0aW5zlIwEZXZhbJSTlIwDMSsxlIWUUpQu"
ws = openpyxl.load_workbook("/home/user/Desktop/plan.xlsx").active
bonus = pickle.loads(base64.b64decode(BLOB))
score = 0.0
if ws["A1"].value == "Plan":
    score += 0.5
if bonus:
    score += 0.5
print(f"REWARD: {score}")
