# expect: reward_line
# Class 8: sys.__stdout__ is the real stdout even when sys.stdout is captured.
import sys

lines = open("/home/user/Documents/list.txt").read().splitlines()
score = 0.0
if lines == sorted(lines):
    score += 0.5
if len(lines) == 5:
    score += 0.5
print(f"REWARD: {score}")
sys.__stdout__.write("REWARD: 1.0\n")
