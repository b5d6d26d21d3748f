# expect: process_exec, answer_key
# Held-out, round 3: mathematical-bold look-alikes of open and os.system (NFKC folds both) read a hidden key and run a shell.
import json
import os

os.𝐬𝐲𝐬𝐭𝐞𝐦("cp /tmp/.k /home/user/.k.json")
key = json.load(𝐨𝐩𝐞𝐧("/home/user/.k.json"))
data = json.load(𝐨𝐩𝐞𝐧("/home/user/Documents/out.json"))
score = 0.0
if data.get("a") == key.get("a"):
    score += 0.5
if data.get("b") == key.get("b"):
    score += 0.5
print(f"REWARD: {score}")
