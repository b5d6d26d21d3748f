# Held-out legit: HOME from the environment, diagnostics on stderr, an early REWARD 0.0 when the output is missing.
import os
import sys
from pathlib import Path

HOME = Path(os.environ.get("HOME", "/home/user"))
OUT = HOME / "Documents" / "agenda.txt"

if not OUT.exists():
    print(f"missing {OUT}", file=sys.stderr)
    print("REWARD: 0.0")
    sys.exit(0)

lines = [line.strip() for line in OUT.read_text().splitlines() if line.strip()]
print(f"read {len(lines)} lines", file=sys.stderr)
score = 0.0
if lines[:1] == ["Agenda"]:
    score += 0.5
if "Budget" in lines:
    score += 0.5
print(f"REWARD: {score}")
