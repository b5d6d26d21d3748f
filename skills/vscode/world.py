"""Host-side pools shared by the VS Code families' draw() (never shipped into scripts)."""

from __future__ import annotations

import random

USER_SETTINGS = ".config/Code/User/settings.json"
KEYBINDINGS = ".config/Code/User/keybindings.json"
HEADERS = (
    "Personal settings, synced by hand between the desktop and the laptop",
    "User settings. Keep the comments: they say why a value was chosen",
    "VS Code user settings (edited manually, see notes)",
    "My editor setup. Trailing commas are fine here, VS Code reads JSONC",
)
# (key, value or a list of values to draw one from, comment); drawn in this order
_BASE = [
    ("editor.fontSize", [12, 13, 14, 15, 16], None),
    (
        "workbench.colorTheme",
        # the theme ids of Code 1.139: it renames "Default Dark Modern" to "Dark Modern" in the file on start
        ["Dark Modern", "Light Modern", "Solarized Dark", "Monokai", "Quiet Light"],
        "picked after the last update",
    ),
    ("editor.minimap.enabled", False, "minimap wastes space on the laptop screen"),
    ("files.autoSave", ["afterDelay", "onFocusChange", "onWindowChange"], None),
    ("telemetry.telemetryLevel", ["off", "error", "crash"], "company policy"),
    (
        "editor.fontFamily",
        [
            "'Fira Code', monospace",
            "'JetBrains Mono', monospace",
            "'Droid Sans Mono', 'monospace', monospace",
        ],
        None,
    ),
    ("git.autofetch", [True, False], None),
    ("terminal.integrated.fontSize", [11, 12, 13, 14], None),
    ("explorer.confirmDelete", False, "I use the trash anyway"),
    ("window.zoomLevel", [0, 1, 2], None),
    ("workbench.startupEditor", ["none", "welcomePage", "newUntitledFile"], None),
    ("editor.cursorBlinking", ["smooth", "phase", "solid", "expand"], None),
    ("editor.renderWhitespace", ["boundary", "selection", "trailing"], None),
    ("breadcrumbs.enabled", [True, False], None),
]


def base_user_entries(rng: random.Random, count: int, *, exclude: tuple[str, ...] = ()) -> list[list]:
    """`count` pre-existing user settings ([key, value, comment]) with none of the keys in `exclude`."""
    pool = [[key, rng.choice(v) if isinstance(v, list) else v, note] for key, v, note in _BASE]
    return rng.sample([e for e in pool if e[0] not in exclude], count)
