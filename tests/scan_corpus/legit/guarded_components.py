# Checks as functions in a weight table; a failing check returns 0.0, the sum is normalised.
import json
from pathlib import Path

SETTINGS = Path.home() / ".config/Code/User/settings.json"


def load():
    return json.loads(SETTINGS.read_text(encoding="utf-8"))


def associations():
    try:
        return 1.0 if load().get("files.associations", {}).get("*.tmpl") == "html" else 0.0
    except (OSError, ValueError, AttributeError):
        return 0.0


def tab_size():
    try:
        return 1.0 if load().get("editor.tabSize") == 2 else 0.0
    except (OSError, ValueError):
        return 0.0


def format_on_save():
    try:
        return float(load().get("editor.formatOnSave") is True)
    except (OSError, ValueError):
        return 0.0


CHECKS = [("associations", 0.35, associations), ("tab size", 0.35, tab_size), ("format on save", 0.3, format_on_save)]
total = sum(weight for _, weight, _ in CHECKS)
earned = sum(weight * check() for _, weight, check in CHECKS)
print(f"REWARD: {earned / total:.4f}")
