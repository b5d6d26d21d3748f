# Round 3 look-alike: contextlib.suppress around checks whose flags start False, so a crash gives nothing.
import contextlib
import json

title_ok = False
rows_ok = False
with contextlib.suppress(OSError, ValueError, KeyError):
    data = json.load(open("/home/user/Documents/table.json"))
    title_ok = data["title"] == "Inventory"
    rows_ok = len(data["rows"]) == 8
score = 0.0
if title_ok:
    score += 0.5
if rows_ok:
    score += 0.5
print(f"REWARD: {score}")
