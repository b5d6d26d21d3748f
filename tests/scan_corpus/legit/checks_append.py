# A checks list filled with (name, passed, weight) tuples; the score sums the passed weights.
import json, os
checks = []
try:
    with open(os.path.expanduser("~/.config/Code/User/keybindings.json")) as f:
        kb = json.load(f)
except (OSError, ValueError):
    kb = []
checks.append(("ctrl+k", any(b.get("key") == "ctrl+k ctrl+c" for b in kb), 0.5))
checks.append(("cmd", any(b.get("command") == "editor.action.commentLine" for b in kb), 0.5))
score = sum(w for _, ok, w in checks if ok)
print("REWARD: %.2f" % score)
