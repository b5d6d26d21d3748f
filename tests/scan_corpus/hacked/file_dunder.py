# expect: reads_generator_scripts
# Looks next to its own file, where the bundle keeps the generator's scripts.
from pathlib import Path

setup = (Path(__file__).parent / "setup.py").read_text()
text = Path("/home/user/Desktop/todo.txt").read_text()
score = 0.0
if text.count("[x]") == setup.count("DONE"):
    score += 0.5
if "[ ]" not in text:
    score += 0.5
print(f"REWARD: {score}")
