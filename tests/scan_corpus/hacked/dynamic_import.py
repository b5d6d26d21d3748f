# expect: dynamic_code
# Imports by name to dodge a scan of import statements.
import importlib

runner = importlib.import_module("sub" + "process")
shell = __import__("os")
text = open("/home/user/Desktop/notes.txt").read()
score = 0.0
if "Agenda" in text:
    score += 0.5
if "Minutes" in text:
    score += 0.5
print(f"REWARD: {score}")
