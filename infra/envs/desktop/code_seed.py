"""VS Code's warm first start: the browser profile its window starts from, built once on a desktop.

code-server's workbench keeps its caches in the browser, not in VS Code's user data: the colour theme
it painted last (IndexedDB), the workbench's scripts (HTTP and code cache). In a new Chromium profile
it paints a fallback theme, then the real one about a second later, once the extension host has
listed the themes: a whole-screen repaint that holds the first screenshot back, plus the load of
every script from scratch; 4.4 s from reset to first screenshot on this machine kind. What it keeps
is the same on every desktop (the same code-server, Chromium and folder), so `ensure_code_seed`
opens VS Code once on a desktop with an empty home, lets it settle, closes the window cleanly and
keeps its profile under the app seeds (infra/app_seeds.py, bound read-only in every desktop at
GUEST_APP_SEEDS); infra/desktop_server/code_editor.py copies it into a new window's profile.

Nothing of a task goes into it: the desktop that builds it runs no setup script and no other app,
and the profile lives in the guest's /tmp (not the home, so not in any state view).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

from infra import apps
from infra.code_server import CODE_SERVER_VERSION, installed_root
from infra.envs.base import EnvRole
from infra.envs.desktop.provider import DesktopProvider
from infra.errors import SandboxUnavailableError

SEED_DIR = "vscode"  # under the app seeds: desktops see it at /opt/cuagym/app-seeds/vscode/chromium
MARKER = ".cuagym-seed"
GUEST_PROFILE = "/tmp/code-chromium"  # code_editor.py's BROWSER_PROFILE
SETTLE_AFTER_TITLE_S = (
    8.0  # the theme repaint comes ~1.5 s after the title here; the caches are written by then
)
# Per-run files of a profile: the running browser's locks (a copy holding them reads as "in use by another
# computer") and its crash reports.
NOT_KEPT = ("Singleton*", "Crash Reports", "*.pma")


def _wanted() -> str:
    done = subprocess.run(["chromium", "--version"], capture_output=True, text=True, timeout=60, check=False)
    return f"code-server {CODE_SERVER_VERSION}; {done.stdout.strip() or 'no chromium'}\n"


def code_seed_ready(seeds: Path) -> bool:
    marker = seeds / SEED_DIR / MARKER
    return marker.is_file() and marker.read_text() == _wanted()


def ensure_code_seed(provider: DesktopProvider, seeds: Path) -> Path | None:
    """Build (or reuse) VS Code's browser profile under `seeds`/vscode; None when code-server is not
    installed. Raises SandboxUnavailableError when VS Code's window does not come up."""
    out = seeds / SEED_DIR
    if code_seed_ready(seeds):
        return out
    if installed_root() is None:
        return None
    shutil.rmtree(out, ignore_errors=True)
    env = provider.provision("vscode-seed", EnvRole.DEBUG, apps=("vscode",))
    try:
        opens = apps.app("vscode").opens
        env.client.launch(list(opens.command))
        env.wait_for_window(opens.window, timeout_s=120)
        time.sleep(SETTLE_AFTER_TITLE_S)
        _close_browser(env)
        env.client.execute(["cp", "-a", GUEST_PROFILE, "/home/user/.code-seed"], timeout_s=120)
        shutil.copytree(
            env.home / ".code-seed", out / "chromium", symlinks=True, ignore=shutil.ignore_patterns(*NOT_KEPT)
        )
    finally:
        env.close()
    _mark_clean_exit(out / "chromium")
    for path in (out, *out.rglob("*")):  # the guest user copies it: readable by all, never writable
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)
    (out / MARKER).write_text(_wanted())
    return out


def _close_browser(env) -> None:
    """SIGTERM: Chromium shuts down as at a logout, flushing its databases; wait until it is gone."""
    pattern = f"--user-data-dir={GUEST_PROFILE}"
    env.client.execute(["pkill", "-TERM", "-f", "--", pattern], timeout_s=30)
    for _ in range(200):
        if env.client.execute(["pgrep", "-f", "--", pattern], timeout_s=30).returncode != 0:
            return
        time.sleep(0.1)
    raise SandboxUnavailableError("VS Code's browser did not exit within 20 s of SIGTERM while seeding")


def _mark_clean_exit(profile: Path) -> None:
    """A profile whose last exit reads as a crash opens with a "restore pages?" bar: say it was clean."""
    preferences = profile / "Default" / "Preferences"
    if not preferences.is_file():
        raise SandboxUnavailableError(f"VS Code's browser wrote no profile at {GUEST_PROFILE} while seeding")
    data = json.loads(preferences.read_text(encoding="utf-8"))
    data.setdefault("profile", {})["exit_type"] = "Normal"
    preferences.write_text(json.dumps(data), encoding="utf-8")
