# Held-out legit, round 3: os.walk over the export folder, reading every CSV and summing its rows.
import csv
import os

EXPORT = "/home/user/Documents/exports"
rows = 0
files_with_header = 0
for where, _subdirs, names in os.walk(EXPORT):
    for name in sorted(names):
        if name.endswith(".csv"):
            with open(os.path.join(where, name), newline="") as fh:
                table = list(csv.reader(fh))
            if table and table[0] == ["date", "amount"]:
                files_with_header += 1
            rows += max(len(table) - 1, 0)
a = 1.0 if files_with_header == 4 else 0.0
b = 1.0 if rows == 120 else 0.0
print(f"REWARD: {0.5 * a + 0.5 * b}")
