# Per-check parts in a dict, summed; early REWARD: 0.0 when the workbook is missing.
import sys
from pathlib import Path
import openpyxl

def main():
    path = Path("/home/user/Desktop/grades.xlsx")
    if not path.exists():
        print("missing"); print("REWARD: 0.0"); return 0
    wb = openpyxl.load_workbook(path)
    ws = wb.active
    parts = {}
    parts["avg"] = 0.5 if ws["E2"].value == "=AVERAGE(B2:D2)" else 0.0
    parts["fill"] = 0.5 * sum(1 for r in range(3, 10) if ws[f"E{r}"].value == f"=AVERAGE(B{r}:D{r})") / 7
    score = round(sum(parts.values()), 4)
    print(parts)
    print(f"REWARD: {score}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
