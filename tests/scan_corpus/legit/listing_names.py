# The sorted listing is compared with the expected names: the names are the content of a folder.
import json
import os

P = json.loads('{"dir": "/home/user/Music/Sorted", "names": ["a.mp3", "b.mp3", "c.mp3"], "src": "/home/user/Downloads"}')

score = 0.0
if sorted(os.listdir(P["dir"])) == sorted(P["names"]):
    score += 0.7
left = [n for n in os.listdir(P["src"]) if n.endswith(".mp3")]
if not left:
    score += 0.3
print(f"REWARD: {score}")
