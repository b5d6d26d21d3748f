# expect: process_exec, outside_env
# pty.spawn starts a shell; /tmp is outside the env.
import pty

pty.spawn(["/bin/sh", "-c", "cp /home/user/Desktop/a.txt /tmp/a.txt"])
text = open("/tmp/a.txt").read()
score = 0.0
if "alpha" in text:
    score += 0.5
if "beta" in text:
    score += 0.5
print(f"REWARD: {score}")
