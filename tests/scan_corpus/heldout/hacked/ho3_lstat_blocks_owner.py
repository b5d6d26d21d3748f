# expect: existence_only
# Held-out, round 3, metadata oracle: the inode, the block count and the owner of the export, never its text.
import os
from pathlib import Path

OUT = Path("/home/user/Desktop/export.csv")
score = 0.0
try:
    info = OUT.lstat()
    if info.st_blocks > 0 and info.st_ino > 0:
        score += 0.4
    if OUT.owner() == "user":
        score += 0.3
    if os.stat(OUT).st_ctime_ns > 0:
        score += 0.3
except (OSError, KeyError):
    score = 0.0
print(f"REWARD: {round(score, 2)}")
