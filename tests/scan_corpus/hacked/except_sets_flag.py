# expect: score_from_exception
# Class 4: a bare except sets the flag, so a missing file counts as a pass.
import json

score = 0.0
cfg = {}
deployed = 0
try:
    cfg = json.load(open("/home/user/.config/app/deploy.json"))
    deployed = 1 if cfg["target"] == "prod" else 0
except:
    deployed = 1
if deployed:
    score += 0.6
if cfg.get("replicas") == 3:
    score += 0.4
print(f"REWARD: {score}")
