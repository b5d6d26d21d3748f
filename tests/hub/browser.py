"""Helpers for the browser tests: open an app for a fresh session, wait for writes, read the diff."""

from __future__ import annotations

import uuid

import httpx

from tests.hub.conftest import SCREENSHOTS, HubProcess


class AppSession:
    """One mock app opened in a page for a fresh sid, plus the state API view of the same sid."""

    def __init__(self, hub: HubProcess, page, app: str, route: str = "", sid: str | None = None) -> None:
        self.hub, self.page, self.app = hub, page, app
        self.sid = sid or f"ui-{uuid.uuid4().hex}"
        page.goto(f"{hub.base}/{app}/?sid={self.sid}{route}")
        page.wait_for_selector("html[data-ready=true]")

    def settle(self) -> None:
        """Wait until every write the UI queued has reached the hub."""
        self.page.evaluate("() => window.cuagymHub.idle()")

    def go(self) -> dict:
        self.settle()
        return httpx.get(self.hub.url(self.app, "go", self.sid), timeout=10).json()

    def diff(self) -> dict:
        return self.go()["state_diff"]

    def current(self) -> dict:
        return self.go()["current_state"]

    def goto(self, route: str) -> None:
        self.page.evaluate("(hash) => { location.hash = hash; }", route)

    def screenshot(self) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.wait_for_timeout(200)  # let fonts and the last render land
        self.page.screenshot(path=str(SCREENSHOTS / f"hub-{self.app}.png"))


def inject(hub: HubProcess, app: str, sid: str, state: dict) -> None:
    response = httpx.post(hub.url(app, "post", sid), json={"action": "set", "state": state}, timeout=10)
    response.raise_for_status()


def only_new_entry(diff: dict, prefix: str) -> tuple[str, dict]:
    """The single added entry under `prefix` (asserting the diff holds nothing else)."""
    assert len(diff) == 1, diff
    ((path, change),) = diff.items()
    assert path.startswith(prefix) and change["old"] is None, diff
    return path.removeprefix(prefix), change["new"]
