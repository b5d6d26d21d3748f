"""The guest Python: the interpreter generated scripts see as `python3` inside a sandbox.

It is a dedicated venv built from Debian's /usr/bin/python3 (so that, bound read-only next to /usr,
it runs inside bubblewrap with nothing else of the host) holding exactly the libraries DESIGN.md §3.1
allows. `ensure_guest_python` is idempotent: it rebuilds only when the requirements file changed.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
from pathlib import Path

from infra.errors import SandboxUnavailableError

log = logging.getLogger(__name__)

REQUIREMENTS = Path(__file__).with_name("guest-requirements.txt")
BASE_PYTHON = Path("/usr/bin/python3")
_MARKER = ".cuagym-requirements.sha256"


def _requirements_hash() -> str:
    return hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()


def guest_python_ready(venv: Path) -> bool:
    marker = venv / _MARKER
    return marker.exists() and marker.read_text().strip() == _requirements_hash()


def ensure_guest_python(venv: Path) -> Path:
    """Build (or reuse) the guest venv at `venv`; returns it. Raises if it cannot be built."""
    if guest_python_ready(venv):
        return venv
    build_venv(venv, REQUIREMENTS, digest=_requirements_hash(), what="guest")
    return venv


def build_venv(venv: Path, requirements: Path, *, digest: str, what: str) -> None:
    """(Re)build `venv` from Debian's /usr/bin/python3 with `requirements`, then stamp it with `digest`.

    Shared by every venv that is bound into a sandbox (the guest Python, the desktop's Python): built
    from the interpreter under /usr so that, bound read-only next to /usr, it runs with nothing else
    of the host. Raises SandboxUnavailableError if Python, venv or PyPI is missing.
    """
    if not BASE_PYTHON.exists():
        raise SandboxUnavailableError(
            f"{BASE_PYTHON} is missing; the {what} venv must be built from the system Python that lives "
            "under /usr so it works inside the sandbox",
            hint="apt-get install python3 python3-venv (or run `make setup`)",
        )
    log.info("building %s Python at %s", what, venv)
    if venv.exists():
        shutil.rmtree(venv)
    try:
        subprocess.run([str(BASE_PYTHON), "-m", "venv", str(venv)], check=True, capture_output=True)
        pip = [
            str(venv / "bin" / "python3"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ]
        subprocess.run([*pip, "-r", str(requirements)], check=True, capture_output=True)
        # The venv is bound read-only in the sandbox, so bytecode must exist before the first run.
        subprocess.run(
            [str(venv / "bin" / "python3"), "-m", "compileall", "-q", str(venv)],
            check=False,
            capture_output=True,
        )
    except subprocess.CalledProcessError as exc:
        raise SandboxUnavailableError(
            f"building the {what} venv failed: {exc.stderr.decode(errors='replace')[-800:]}",
            hint="apt-get install python3-venv, and check that PyPI is reachable",
        ) from exc
    (venv / _MARKER).write_text(digest)


def require_guest_python(venv: Path) -> Path:
    if not guest_python_ready(venv):
        raise SandboxUnavailableError(
            f"the guest Python venv at {venv} is missing or out of date",
            hint="run `make setup` (or `cuagym setup`) to build it",
        )
    return venv
