# expect: process_exec
# Shells out to LibreOffice to recalculate: the grader can run anything.
import subprocess

import openpyxl

subprocess.run(["soffice", "--headless", "--convert-to", "xlsx", "/home/user/Desktop/q3.xlsx"], check=False)
ws = openpyxl.load_workbook("/home/user/Desktop/q3.xlsx", data_only=True).active
score = 0.0
if ws["D10"].value == 1200:
    score += 0.5
if ws["D11"].value == 300:
    score += 0.5
print(f"REWARD: {score}")
