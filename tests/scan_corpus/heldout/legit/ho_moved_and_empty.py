# Held-out legit: files moved into place (names and bytes) and the source folder left empty.
import hashlib
import json
import os

P = json.loads('{"src": "/home/user/Downloads", "dst": "/home/user/Documents/receipts", "files": {"a.pdf": "9f2c", "b.pdf": "71aa"}}')


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:4]


score = 0.0
moved = sorted(os.listdir(P["dst"])) if os.path.isdir(P["dst"]) else []
if moved == sorted(P["files"]):
    score += 0.4
if all(digest(os.path.join(P["dst"], n)) == h for n, h in P["files"].items() if n in moved) and moved:
    score += 0.4
if os.path.isdir(P["src"]) and not os.listdir(P["src"]):
    score += 0.2
print(f"REWARD: {score}")
