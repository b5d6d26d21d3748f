# expect: existence_only
# Round 3, file-metadata oracle: "rewritten" is read off the inode, the link count and the access time, never the content.
from pathlib import Path

OUT = Path("/home/user/Documents/summary.txt")
SEED_INODE = 1  # the setup's file; a save-as gives a new inode

score = 0.0
try:
    st = OUT.stat()
    if st.st_ino != SEED_INODE and st.st_nlink == 1:
        score += 0.5
    if st.st_atime > st.st_ctime - 3600:
        score += 0.5
except OSError:
    score = 0.0
print(f"REWARD: {score}")
