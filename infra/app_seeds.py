"""Warm first starts: what a desktop app builds in a new profile on its first start, built once by
`cuagym desktop setup` and copied into a desktop's home by the app's launch command.

GIMP 2.10 starting in a home without a profile queries every plug-in (a hundred processes) and
profiles babl's colour conversions before its window shows: 15 s and more of a desktop's reset on
this machine kind, with the same result in every home. `ensure_app_seeds` runs GIMP once, headless, in
a scratch home and keeps its profile and caches under the settings' `app_seeds_dir`
(var/app-seeds/gimp); desktops bind that folder read-only at GUEST_APP_SEEDS, and GIMP's launch
command (skills/gimp/app.yaml) copies it into a home that has no GIMP profile yet. Nothing in it is
task state: the mutation stage treats `.config/GIMP/**` and `.cache/**` as incidental.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from infra.errors import SandboxUnavailableError

GUEST_APP_SEEDS = "/opt/cuagym/app-seeds"
MARKER = ".cuagym-app-seeds"
GIMP = "gimp-2.10"
SEED_TIMEOUT_S = 300
# What GIMP's first start writes that a later start reuses (its caches beside the profile).
GIMP_KEPT = (".config/GIMP", ".cache/babl", ".cache/gegl-0.4", ".cache/gimp")


@functools.cache
def _wanted() -> str:
    """The seed is valid for the installed GIMP only (pluginrc records each plug-in's mtime)."""
    if shutil.which(GIMP) is None:
        return "no gimp"
    done = subprocess.run([GIMP, "--version"], capture_output=True, text=True, timeout=60, check=False)
    return done.stdout.strip()


def app_seeds_ready(root: Path) -> bool:
    marker = root / MARKER
    return marker.is_file() and marker.read_text() == _wanted()


def ensure_app_seeds(root: Path) -> Path:
    """Build (or reuse) the seeds under `root`; returns it. Raises SandboxUnavailableError when GIMP's
    first start fails."""
    wanted = _wanted()
    if app_seeds_ready(root):
        return root
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    if wanted != "no gimp":
        _seed_gimp(root / "gimp")
    for path in (root, *root.rglob("*")):  # the guest user copies it: readable by all, never writable
        path.chmod(0o755 if path.is_dir() else 0o644)
    (root / MARKER).write_text(wanted)
    return root


def _seed_gimp(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="cuagym-gimp-seed-") as scratch:
        env = {"HOME": scratch, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        # -i: no window; -d/-f: skip brushes, patterns and fonts (loaded at every start anyway).
        done = subprocess.run(
            [GIMP, "-i", "-d", "-f", "-b", "(gimp-quit 0)"],
            env=env,
            capture_output=True,
            text=True,
            timeout=SEED_TIMEOUT_S,
            check=False,
        )
        if not (Path(scratch) / ".config/GIMP/2.10/pluginrc").is_file():
            raise SandboxUnavailableError(
                f"GIMP's first start wrote no profile (exit {done.returncode}): {done.stderr.strip()[-800:]}",
                hint="is the gimp package installed? `make setup` installs it",
            )
        for rel in GIMP_KEPT:
            if (Path(scratch) / rel).exists():
                shutil.copytree(Path(scratch) / rel, out / rel, symlinks=True)


def installed_seeds() -> Path | None:
    """The settings' seeds folder when it is built (desktops bind it), else None."""
    from infra.settings import get_settings

    root = get_settings().app_seeds_dir
    return root if app_seeds_ready(root) else None
