"""A LibreOffice user profile that starts like a configured OSWorld VM: no first-run dialogs.

The profile lives where an OSWorld Ubuntu guest keeps it (~/.config/libreoffice/4/user), so tasks
whose checkers read registrymodifications.xcu see the usual file, and each env (each home) has its
own. Only the settings that would otherwise pop up on a fresh profile are written; LibreOffice
creates the rest on first start. The "keep current format" question on saving to .xlsx/.docx is
left on, as on OSWorld: agents must handle it.
"""

from __future__ import annotations

import re
from pathlib import Path

PROFILE_DIR = ".config/libreoffice/4/user"
MAIN_XCD = Path("/usr/lib/libreoffice/share/registry/main.xcd")
_VERSION = re.compile(r'name="ooSetupVersion">\s*<value>([0-9.]+)</value>')

# (configuration path, property, value): each would otherwise show a dialog or an info bar.
_SETTINGS = (
    ("/org.openoffice.Setup/Product", "ooSetupLastVersion", "{version}"),  # "what's new" info bar
    ("/org.openoffice.Setup/Office", "FirstStartWizardCompleted", "true"),
    ("/org.openoffice.Office.Common/Misc", "FirstRun", "false"),
    ("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false"),
    ("/org.openoffice.Setup/Product", "LastTimeGetInvolvedShown", "9999999999"),  # "get involved" bar
    ("/org.openoffice.Setup/Product", "LastTimeDonateShown", "9999999999"),
    ("/org.openoffice.Office.Common/Misc", "ShowDonationInfobar", "false"),
)


def product_version() -> str:
    """The installed LibreOffice's major.minor (e.g. "7.4"); "99.9" when it cannot be read, which
    also suppresses the what's-new bar (it shows only when the running version is newer)."""
    try:
        match = _VERSION.search(MAIN_XCD.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return "99.9"
    return match.group(1) if match else "99.9"


def registry_xml(version: str) -> str:
    items = "\n".join(
        f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse"><value>{value.format(version=version)}'
        "</value></prop></item>"
        for path, name, value in _SETTINGS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}\n</oor:items>\n"
    )


def seed_profile(home: Path) -> bool:
    """Write the profile's settings unless the home already has a profile (a task's initial state
    may carry its own); returns whether it wrote one."""
    target = home / PROFILE_DIR / "registrymodifications.xcu"
    if target.exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(registry_xml(product_version()), encoding="utf-8")
    return True
