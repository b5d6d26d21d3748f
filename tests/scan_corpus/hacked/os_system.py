# expect: process_exec
# os.system and os.popen are processes too.
import os

score = 0.0
listing = os.popen("ls /home/user/Desktop").read()
if "report.pdf" in listing:
    score += 0.5
if os.system("grep -q Revenue /home/user/Desktop/report.txt") == 0:
    score += 0.5
print(f"REWARD: {score}")
