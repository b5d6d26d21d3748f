"""Host-side pools shared by the VS Code families (draw() only; nothing here reaches a guest script)."""

from __future__ import annotations

import random

USER_SETTINGS = ".config/Code/User/settings.json"
KEYBINDINGS = ".config/Code/User/keybindings.json"


def _base_pool(rng: random.Random) -> list[list]:
    return [
        ["editor.fontSize", rng.choice([12, 13, 14, 15, 16]), None],
        ["workbench.colorTheme", rng.choice(["Default Dark Modern", "Default Light Modern", "Solarized Dark",
                                             "Monokai", "Quiet Light"]), "picked after the last update"],
        ["editor.minimap.enabled", False, "minimap wastes space on the laptop screen"],
        ["files.autoSave", rng.choice(["afterDelay", "onFocusChange", "onWindowChange"]), None],
        ["telemetry.telemetryLevel", rng.choice(["off", "error", "crash"]), "company policy"],
        ["editor.fontFamily", rng.choice(["'Fira Code', monospace", "'JetBrains Mono', monospace",
                                          "'Droid Sans Mono', 'monospace', monospace"]), None],
        ["git.autofetch", rng.choice([True, False]), None],
        ["terminal.integrated.fontSize", rng.choice([11, 12, 13, 14]), None],
        ["explorer.confirmDelete", False, "I use the trash anyway"],
        ["window.zoomLevel", rng.choice([0, 1, 2]), None],
        ["workbench.startupEditor", rng.choice(["none", "welcomePage", "newUntitledFile"]), None],
        ["editor.cursorBlinking", rng.choice(["smooth", "phase", "solid", "expand"]), None],
        ["editor.renderWhitespace", rng.choice(["boundary", "selection", "trailing"]), None],
        ["breadcrumbs.enabled", rng.choice([True, False]), None],
    ]  # fmt: skip


def base_user_entries(rng: random.Random, count: int, *, exclude: tuple[str, ...] = ()) -> list[list]:
    """`count` pre-existing user settings ([key, value, comment]) with none of the keys in `exclude`."""
    pool = [e for e in _base_pool(rng) if e[0] not in exclude]
    return rng.sample(pool, count)


HEADERS = (
    "Personal settings, synced by hand between the desktop and the laptop",
    "User settings. Keep the comments: they say why a value was chosen",
    "VS Code user settings (edited manually, see notes)",
    "My editor setup. Trailing commas are fine here, VS Code reads JSONC",
)
