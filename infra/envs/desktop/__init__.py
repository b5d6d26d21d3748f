"""The `desktop` env provider: a real X desktop (Xvfb, openbox, LibreOffice) per env, in the same
bubblewrap sandbox as `local`, driven through an OSWorld-compatible in-guest server.

An env is a directory `<root>/<task>/<env_id>/` holding `home/` (mounted at /home/user), `scripts/`
(read-only at /opt/cuagym/scripts, outside the state view), `desktop.log` (the sandbox's stderr) and
`snapshots/`. The env is infra/envs/desktop/env.py (its web apps: web_apps.py), the provider provider.py.
The desktop itself is one sandbox (infra/envs/desktop/sandbox.py) whose server listens
on a Unix socket; the host reaches it with `env.client` (typed calls over that socket), or — for
OSWorld's own controllers — over a loopback TCP port that `env.serve_tcp()` opens, with the token as
HTTP Basic password (`env.osworld_address()` gives the vm_ip/port pair to hand them).

Reset never boots a VM: it ends the sandbox, restores the home from the env's initial snapshot (the
state at provision, or what `mark_initial()` recorded after a task's setup) and starts a fresh one.
The token and the TCP port survive resets, so a controller holding them keeps working.

Web apps: a desktop provisioned with `apps` that include hub apps (chat, tracker, store, mail), from a
provider given `hub=HubRoute(...)`, gets its own random hub session (`env.sid`) and, for as long as it
lives, the forwarder from the guest's 127.0.0.1:8400 to the hub's socket (the sandbox's network stays
otherwise empty). Every process of the desktop sees `CUAGYM_HUB_URL` and `CUAGYM_SID`, so a web
task's scripts — and OSWorld's `execute` steps running them — work unchanged, as in `local`.
`open_web_app(app)` shows an app full-screen in Chromium (infra/envs/desktop/browser.py);
`setup_from_config` does so for a bundle whose related apps are web apps. Each snapshot (the initial
one included) records the session's hub state next to the home, and a reset puts it back.

Example:
    >>> provider = DesktopProvider(Path("var/desktops"), Path("var/desktop-venv"))
    >>> with provider.provision("t1", EnvRole.ROLLOUT) as env:
    ...     env.setup_from_config(Path("output/final/t1/config.json"))   # upload + execute, open the file
    ...     env.gui_input(KeyPress(keys=["ctrl", "s"]))
    ...     png = env.screenshot()
"""

from infra.envs.desktop.env import APP_HOUSEKEEPING, DesktopEnv
from infra.envs.desktop.provider import DesktopProvider

__all__ = ["APP_HOUSEKEEPING", "DesktopEnv", "DesktopProvider"]
