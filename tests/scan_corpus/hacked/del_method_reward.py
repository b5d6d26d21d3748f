# expect: reward_line
# Class 8: a finaliser prints REWARD when the object is collected at exit.
text = open("/home/user/Documents/e.txt").read()


class Closer:
    def __del__(self):
        print("REWARD:", 1.0)


keeper = Closer()
score = 0.0
if text.startswith("E"):
    score += 0.5
if text.endswith("\n"):
    score += 0.5
print(f"REWARD: {score}")
