# expect: dynamic_code
# Class 5: a function looked up in globals() by a string built at run time.
import json

data = json.load(open("/home/user/Documents/tasks.json"))
name = "_".join(["check", data.get("mode", "strict")])


def check_strict():
    return data.get("done") is True


def check_loose():
    return True


score = 0.0
if globals()[name]():
    score += 0.5
if data.get("owner") == "kim":
    score += 0.5
print(f"REWARD: {score}")
