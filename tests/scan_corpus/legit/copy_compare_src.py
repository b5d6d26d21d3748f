# A copy task compares the copy's bytes with the original's: both are state, neither is hidden.
from pathlib import Path

HOME = Path("/home/user")
SRC = HOME / "Documents" / "contract.pdf"
DST = HOME / "Backup" / "contract.pdf"

score = 0.0
if DST.is_file() and DST.read_bytes() == SRC.read_bytes():
    score += 0.7
if SRC.is_file() and SRC.read_bytes()[:4] == b"%PDF":
    score += 0.3
print(f"REWARD: {score}")
