"""Chromium inside a desktop: the command line that shows one hub web app full-screen.

Debian's Chromium (the binary behind /usr/bin/chromium) runs in the desktop's sandbox like any other
app, reaching the hub only through the forwarder on the guest's 127.0.0.1:8400. The binary is
started directly, not through the /usr/bin/chromium shell wrapper: the wrapper sources
/etc/chromium.d (API keys for Google services exported into the environment, a `findmnt` probe),
which the sandbox does not bind and the browser does not need. What it does need from the host —
/usr, fonts, the X socket and D-Bus session of the desktop — is there already.

Why each flag (every one is needed as the sandbox runs it: mapped root, no user namespaces, no GPU):
- `--no-sandbox`: Chromium's own sandbox needs user namespaces (the desktop is started with
  `--disable-userns`) or a setuid helper; the bubblewrap sandbox around the whole desktop is the wall.
- `--disable-gpu`: Xvfb has no GPU; software compositing without a GPU process that crash-loops.
- `--disable-dev-shm-usage`: shared memory in the sandbox's /tmp (a sized tmpfs), not /dev/shm.
- `--disable-background-networking --disable-component-update --disable-sync`: the sandbox has no
  network; without these, Chromium keeps retrying update, safe-browsing and sync requests.
- `--no-first-run --no-default-browser-check`: no welcome tab, first-run bubble or default-browser bar.
- `--user-data-dir=/tmp/chromium`: a profile per desktop in its private /tmp, so each start (and each
  reset) begins with an empty profile — no cookies, local storage or "restore pages?" bubble from an
  earlier episode — and nothing of the browser lands in the home (the state view).
- `--kiosk`: the page fills the whole 1920×1080 screen with no tab strip, address bar or infobars
  (not even the one warning about `--no-sandbox`); the X window still has a title ("<page title> -
  Chromium"), which is how the desktop waits for the app and how alt+tab finds it again.
- `--disable-features=Translate,MediaRouter`: no translate prompt, no cast discovery.
- `--password-store=basic`: no keyring lookup (there is no keyring daemon; GNOME's would prompt).
- `--lang=en-US`: the UI and Accept-Language the mock apps are written for, whatever LANG says.
- with accessibility (the desktop's default), `ACCESSIBILITY_ENABLED=1` in its environment and
  `--force-renderer-accessibility`: Chromium joins the AT-SPI tree (GET /accessibility) only when it
  believes an assistive technology runs — GNOME's toolkit-accessibility setting, which this desktop
  has no dconf for, or that variable — and then exports the page's content (links, buttons, entries
  with their screen coordinates), as LibreOffice exports its documents. Without it the browser is
  absent from the tree.
"""

from __future__ import annotations

from pathlib import Path

from infra import apps

CHROMIUM = "/usr/lib/chromium/chromium"
PROFILE_DIR = "/tmp/chromium"
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    f"--user-data-dir={PROFILE_DIR}",
    "--kiosk",
    "--disable-features=Translate,MediaRouter",
    "--password-store=basic",
    "--lang=en-US",
)
WINDOW_SUFFIX = " - Chromium"  # Chromium's X window title is "<page title> - Chromium"

# The <title> of each hub app's index.html; once an app has rendered its state it sets a longer
# document.title ending with it ("#general - Acme - Team Chat"). tests/desktop/test_browser.py
# checks these against the apps' index.html. Declared in skills/<app>/app.yaml (infra/apps.py).
WEB_APP_TITLES = {app: apps.title(app) for app in apps.web_apps()}


def chromium_command(url: str, *, accessibility: bool = True) -> list[str]:
    """The argv that opens `url` full-screen in a fresh per-desktop profile (see the module doc)."""
    if not accessibility:
        return [CHROMIUM, *CHROMIUM_FLAGS, url]
    return [
        "/usr/bin/env",
        "ACCESSIBILITY_ENABLED=1",
        CHROMIUM,
        *CHROMIUM_FLAGS,
        "--force-renderer-accessibility",
        url,
    ]


def chromium_installed() -> bool:
    return Path(CHROMIUM).is_file()


def rendered_title(titles: list[str], app: str) -> str | None:
    """The browser window of `app` once the app has rendered its state: a title ending with the app's
    name that is longer than the bare one the page has while it loads; None while there is none."""
    name = apps.title(app)  # an undeclared app raises UnknownAppError
    for title in titles:
        if title.endswith(name + WINDOW_SUFFIX) and title != name + WINDOW_SUFFIX:
            return title
    return None
