"""The desktop's Python: what `python3` is inside a `desktop` env, and what runs the in-guest server.

A venv built like the guest Python (infra/guest_python.py: from Debian's /usr/bin/python3, bound read-only
into the sandbox) from infra/desktop_server/requirements.txt, which includes the guest requirements (so a
bundle's initial_setup.py and reward.py run unchanged) and adds the server's libraries and pyautogui
(OSWorld's PythonController drives the guest through `python -c "import pyautogui; …"`). It is a
separate venv so infra/guest_python.py's stays exactly what generated scripts may import.
`ensure_desktop_python` is idempotent: it rebuilds only when either requirements file changed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from infra.errors import SandboxUnavailableError
from infra.guest_python import _MARKER, build_venv
from infra.guest_python import REQUIREMENTS as GUEST_REQUIREMENTS

REQUIREMENTS = Path(__file__).parent / "desktop_server" / "requirements.txt"


def _requirements_hash() -> str:
    digest = hashlib.sha256()
    for path in (REQUIREMENTS, GUEST_REQUIREMENTS):  # the desktop file includes the guest one
        digest.update(path.read_bytes())
    return digest.hexdigest()


def desktop_python_ready(venv: Path) -> bool:
    marker = venv / _MARKER
    return marker.exists() and marker.read_text().strip() == _requirements_hash()


def ensure_desktop_python(venv: Path) -> Path:
    """Build (or reuse) the desktop venv at `venv`; returns it. Raises SandboxUnavailableError."""
    if not desktop_python_ready(venv):
        build_venv(venv, REQUIREMENTS, digest=_requirements_hash(), what="desktop")
    return venv


def require_desktop_python(venv: Path) -> Path:
    if not desktop_python_ready(venv):
        raise SandboxUnavailableError(
            f"the desktop Python venv at {venv} is missing or out of date",
            hint="run `make setup` (or `cuagym desktop setup`) to build it",
        )
    return venv
