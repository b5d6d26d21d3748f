# Held-out legit, round 3: .parent and .parents inside the home (the output's folder, the Documents folder).
from pathlib import Path

OUT = Path.home() / "Documents" / "reports" / "q3" / "summary.txt"
text = OUT.read_text()
notes = (OUT.parent / "notes.txt").read_text()
index = (OUT.parents[1] / "index.txt").read_text()
a = 1.0 if text.startswith("Q3 summary") else 0.0
b = 1.0 if "summary.txt" in index and "reviewed" in notes else 0.0
print(f"REWARD: {0.5 * a + 0.5 * b}")
