# Round 3 look-alike: a nested conditional gives partial credit; the score is the mean of two parts.
import json

data = json.load(open("/home/user/.config/notes/settings.json"))
a = 1.0 if data.get("sync") is True else 0.0
size = data.get("font_size", 0)
b = 1.0 if size == 14 else (0.5 if 12 <= size <= 16 else 0.0)
total = (a + b) / 2
print(f"REWARD: {total}")
