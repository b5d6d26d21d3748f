# Round 3 look-alike: components from conditionals, the sum printed with %-formatting.
import csv

with open("/home/user/Documents/clean.csv", newline="") as fh:
    rows = list(csv.reader(fh))
a = 1.0 if rows and rows[0] == ["id", "name", "email"] else 0.0
b = 1.0 if len({r[2] for r in rows[1:]}) == len(rows) - 1 else 0.0
score = a * 0.5 + b * 0.5
print("REWARD: %.2f" % score)
