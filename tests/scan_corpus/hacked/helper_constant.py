# expect: constant_score
# Class 1: the credit is a constant computed in a helper; no state check decides it.
import json

with open("/home/user/Documents/contacts.json") as fh:
    contacts = json.load(fh)


def weight_for(section):
    half = 1 / 2
    return half


score = 0.0
score += weight_for("names")
score += weight_for("emails")
print("REWARD: %.2f" % score)
