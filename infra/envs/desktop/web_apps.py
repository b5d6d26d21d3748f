"""The web-app half of a desktop env: its hub session (`sid`), the route its scripts see, showing
an app in Chromium, and each app's session state saved with a snapshot and put back on reset.

`DesktopWebApps` is mixed into DesktopEnv (infra/envs/desktop/env.py); it reads the env's
`provider`, `id`, `sid`, `web_apps`, `web_pages`, `client` and `log_path`.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from infra.apps import BROWSER_OSWORLD_NAME
from infra.envs.desktop.browser import chromium_command, rendered_title
from infra.envs.desktop.sandbox import (
    GUEST_HUB_URL,
    SETTLE,
)
from infra.envs.desktop.setup import (
    DesktopSetupError,
    OsworldTask,
)
from infra.errors import DesktopError

BROWSER_APP = BROWSER_OSWORLD_NAME  # what a bundle's config.json names its web apps in related_apps


class DesktopWebApps:
    """Hub session, route and state of a desktop's web apps."""

    def _task_web_apps(self, task: OsworldTask) -> list[str]:
        if BROWSER_APP not in task.related_apps:
            return []
        if not self.web_apps and any(step.type == "launch" for step in task.config):
            return []  # the browser itself is the app (Chromium's own settings, bookmarks, …)
        if not self.web_apps:
            raise DesktopSetupError(
                f"task {task.id} runs in the browser on a hub session, and desktop {self.id} has none",
                hint="provision it with the task's apps (provision(..., apps=spec.apps)) from a "
                "DesktopProvider(hub=HubRoute(...))",
            )
        return list(self.web_apps)

    def hub_env(self) -> dict[str, str]:
        """What a web task's scripts read to reach the hub (empty for a desktop without web apps)."""
        if not self.web_apps:
            return {}
        assert self.sid is not None
        return {"CUAGYM_HUB_URL": GUEST_HUB_URL, "CUAGYM_SID": self.sid}

    def hub_socket(self) -> Path | None:
        """The hub's socket pinned to this desktop's session, for a desktop with web apps (the
        guest's 127.0.0.1:8400 leads there; no other session is reachable through it)."""
        if not self.web_apps or self.provider.hub is None:
            return None
        assert self.sid is not None
        return self.provider.hub.pinned_socket(self.sid)

    def web_app_url(self, app: str) -> str:
        """The guest URL of one of this desktop's web apps, on its own hub session."""
        if app not in self.web_apps:
            raise DesktopError(
                f"{app!r} is not a web app of desktop {self.id} (it has {list(self.web_apps) or 'none'})",
                hint="provision the desktop with the app in `apps`, from a DesktopProvider(hub=...)",
            )
        return f"{GUEST_HUB_URL}/{app}/?sid={self.sid}"

    def open_web_app(self, app: str, *, timeout_s: float = 60.0) -> str:
        """Show `app` full-screen in Chromium (kiosk: no address bar, tabs or infobars) on this
        desktop's hub session; returns once the app has rendered its state and the screen has
        settled, with the browser window's title ("… - Team Chat - Chromium")."""
        url = self.web_app_url(app)
        if not self.provider.has_program("chromium"):
            raise DesktopError(
                "Chromium is not installed, so the desktop cannot show web apps",
                hint="run `make setup` (infra/setup/apt-packages.txt lists chromium)",
            )
        self.client.launch(chromium_command(url, accessibility=self.provider.config.accessibility))
        deadline = time.monotonic() + timeout_s
        while (title := rendered_title(self.window_titles(), app)) is None:
            if time.monotonic() > deadline:
                raise DesktopError(
                    f"{app} did not render in Chromium within {timeout_s:g} s; on screen: {self.window_titles()}",
                    hint=f"check that the hub serves {app} (GET /{app}/ on its socket); see {self.log_path}",
                )
            time.sleep(0.2)
        with contextlib.suppress(DesktopError):  # the app may have retitled it meanwhile (it has the focus)
            self.client.activate_window(title, strict=True)
        self.client.execute(["python3", "-c", SETTLE, "20"], timeout_s=60)
        if app not in self.web_pages:
            self.web_pages.append(app)
        return title

    def _hub(self):
        hub = self.provider.hub
        assert hub is not None, "a desktop with web apps always has a hub route"
        return hub.client(timeout_s=30.0)

    def _hub_get(self, hub, app: str, endpoint: str) -> dict:
        return self._hub_call(hub, "GET", app, endpoint)

    def _hub_call(self, hub, method: str, app: str, endpoint: str, body: dict | None = None) -> dict:
        import httpx

        try:
            response = hub.request(method, f"/{app}/{endpoint}", params={"sid": self.sid}, json=body)
        except httpx.HTTPError as exc:
            raise DesktopError(
                f"cannot reach the hub for {app} of desktop {self.id}: {exc}",
                hint="the hub process may have stopped; start it again (HubProcess) and reset the desktop",
            ) from None
        if response.status_code != 200:
            raise DesktopError(
                f"{method} /{app}/{endpoint} answered {response.status_code}: {response.text[:400]}",
                hint="see the hub's log (hub.log in its data dir)",
            )
        return response.json()

    def _web_state(self) -> dict[str, dict]:
        """Each web app's session state now: baseline and current, and whether it was ever set."""
        states = {}
        with self._hub() as hub:
            for app in self.web_apps:
                stored = self._hub_get(hub, app, "state")
                go = self._hub_get(hub, app, "go")
                states[app] = {
                    "set": bool(stored.get("has_custom_state")),
                    "baseline": go["initial_state"],
                    "current": go["current_state"],
                }
        return states

    def _restore_web_state(self, states: dict[str, dict] | None) -> None:
        """Put each web app's session back to `states` (from `_web_state`): its baseline with `set`
        (idempotent: the hub merges it with the app's defaults, which it already holds), then its
        current state when that differed. A session never set then and never set since is left be."""
        if not states:
            return
        with self._hub() as hub:
            for app, saved in states.items():
                if not saved["set"] and not self._hub_get(hub, app, "state").get("has_custom_state"):
                    continue
                self._hub_call(hub, "POST", app, "post", {"action": "set", "state": saved["baseline"]})
                if saved["current"] != saved["baseline"]:
                    body = {"action": "set_current", "state": saved["current"]}
                    self._hub_call(hub, "POST", app, "post", body)
