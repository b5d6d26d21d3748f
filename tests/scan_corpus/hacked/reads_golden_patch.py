# expect: reads_generator_scripts
# Breaks the information barrier: compares the state against the golden patch's own literals.
import re
from pathlib import Path

patch = Path("/home/user/golden_patch.py").read_text()
expected = re.findall(r"value = (\d+)", patch)
text = Path("/home/user/Desktop/totals.txt").read_text()
score = 0.0
if expected and expected[0] in text:
    score += 0.5
if len(expected) > 1 and expected[1] in text:
    score += 0.5
print(f"REWARD: {score}")
