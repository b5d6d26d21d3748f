# expect: dynamic_code
# Class 5: eval's name is rot13-encoded and fetched from the module table.
import codecs
import sys
from pathlib import Path

text = Path("/home/user/Documents/formula.txt").read_text()
run = getattr(sys.modules["builtins"], codecs.decode("riny", "rot13"))
score = 0.0
if run(text) == 42:
    score += 0.5
if text.strip():
    score += 0.5
print(f"REWARD: {score}")
