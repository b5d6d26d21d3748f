# expect: nondeterministic
# Class 6: the process id, a fresh uuid and the host name decide the credit.
import os
import uuid

text = open("/home/user/Documents/readme.txt").read()
score = 0.0
if os.getpid() > 0 and "install" in text:
    score += 0.4
if uuid.uuid4().int > 0:
    score += 0.3
if os.uname().nodename:
    score += 0.3
print(f"REWARD: {score}")
