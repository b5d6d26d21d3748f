# Bundled hub reward: the URL placeholder is materialised at run time.
import requests

HUB = "__CUAGYM_HUB_URL__"
SID = "__CUAGYM_SID__"
state = requests.get(HUB + "/go", params={"sid": SID}, timeout=10).json()
diff = state["state_diff"]
score = 0.0
if diff.get("settings.theme", {}).get("new") == "dark":
    score += 0.5
if diff.get("settings.language", {}).get("new") == "de":
    score += 0.5
print("REWARD:", score)
