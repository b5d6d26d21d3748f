# expect: dynamic_code
# Class 5: a check built from marshalled bytecode with types.FunctionType.
import marshal
import types
from pathlib import Path

CODE = b"\xe3\x00\x00\x00"
check = types.FunctionType(marshal.loads(CODE), {})
text = Path("/home/user/Documents/plan.txt").read_text()
score = 0.0
if check():
    score += 0.5
if "Q4" in text:
    score += 0.5
print(f"REWARD: {score}")
