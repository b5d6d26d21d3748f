# Held-out legit, round 3: conditional parts collected in a list, the mean printed.
import json
from pathlib import Path

cfg = json.loads((Path.home() / ".config" / "Code" / "User" / "settings.json").read_text())
parts = []
parts.append(1.0 if cfg.get("editor.tabSize") == 2 else 0.0)
parts.append(1.0 if cfg.get("files.associations", {}).get("*.tpl") == "html" else 0.0)
parts.append(1.0 if cfg.get("editor.formatOnSave") is True else 0.0)
print(f"REWARD: {sum(parts) / len(parts):.4f}")
