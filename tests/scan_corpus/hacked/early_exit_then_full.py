# expect: existence_only, too_few_components
# Guards on existence, then prints full credit: existence is all that is checked.
import os
import sys

path = "/home/user/Desktop/cleaned.csv"
if not os.path.exists(path):
    print("REWARD: 0.0")
    sys.exit(0)
print("REWARD: 1.0")
