# File modes are the content of a permissions task: st_mode is read, not just existence.
import json
import os
import stat

P = json.loads('{"files": {"/home/user/bin/run.sh": 493, "/home/user/notes.txt": 384}}')


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


score = 0.0
for path, want in P["files"].items():
    if os.path.exists(path) and mode(path) == want:
        score += 0.5
print(f"REWARD: {score}")
