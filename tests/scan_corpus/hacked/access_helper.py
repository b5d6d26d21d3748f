# expect: existence_only
# Class 3: os.access and Path.is_file() behind two layers of helpers.
import json
import os
from pathlib import Path

P = json.loads('{"out": "/home/user/Desktop/chart.png", "doc": "/home/user/Desktop/report.odt"}')


def _present(path):
    return Path(path).is_file()


def _usable(path):
    return _present(path) and os.access(path, os.R_OK)


score = 0.0
if _usable(P["out"]):
    score += 0.5
if _usable(P["doc"]):
    score += 0.5
print(f"REWARD: {score}")
