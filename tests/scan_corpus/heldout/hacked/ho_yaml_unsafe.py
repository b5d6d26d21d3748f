# expect: dynamic_code
# Held-out, class 5: yaml.load with the full Loader builds arbitrary Python objects from the file.
import yaml

with open("/home/user/.config/app/config.yaml") as fh:
    config = yaml.load(fh, Loader=yaml.Loader)

score = 0.0
if config.get("theme") == "dark":
    score += 0.5
if config.get("font_size") == 14:
    score += 0.5
print(f"REWARD: {score}")
